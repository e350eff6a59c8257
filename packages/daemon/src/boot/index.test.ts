import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const packageDir = fileURLToPath(new URL("../..", import.meta.url));
const child = fileURLToPath(new URL("./fixtures/import-boot.mjs", import.meta.url));

describe("@qwen-daemon/daemon/boot", () => {
  it("exports exactly these values and loads none of the daemon's heavy dependencies", async () => {
    // A real process whose module hooks refuse hono, zod, the ACP SDK and core; the full entry shows they bite.
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", child], {
      cwd: packageDir,
    });
    expect(JSON.parse(stdout)).toEqual({
      boot: ["EARLY_HEALTH_BODY", "answersEarly", "childEnvironment", "listenEarly", "spawnChildChannel"],
      daemon: "failed: heavy import",
    });
  });
});
