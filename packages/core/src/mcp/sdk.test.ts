import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { loadMcpSdk } from "./sdk.js";

const packageDir = fileURLToPath(new URL("../..", import.meta.url));
const child = fileURLToPath(new URL("./fixtures/import-core.mjs", import.meta.url));

describe("loadMcpSdk", () => {
  it("loads the SDK's classes once", async () => {
    const first = loadMcpSdk();
    expect(loadMcpSdk()).toBe(first);
    const sdk = await first;
    expect(typeof sdk.Client).toBe("function");
    expect(typeof sdk.StdioClientTransport).toBe("function");
    expect(typeof sdk.StreamableHTTPClientTransport).toBe("function");
    expect(new sdk.McpError(sdk.ErrorCode.ConnectionClosed, "x")).toBeInstanceOf(Error);
  });

  it("is the only way core reaches the SDK: importing core loads none of it", async () => {
    // A real process with module hooks that refuse the SDK; the second import shows the hooks bite.
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", child], {
      cwd: packageDir,
    });
    expect(JSON.parse(stdout)).toEqual({
      core: "function",
      sdk: "failed: MCP SDK imported: @modelcontextprotocol/sdk/client/index.js",
    });
  });
});
