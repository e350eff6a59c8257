import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Tool } from "../tools/tool.js";
import { McpManager } from "./manager.js";

const packageDir = fileURLToPath(new URL("../..", import.meta.url));
const fixture = fileURLToPath(new URL("./fixtures/echo-server.ts", import.meta.url));

let tmp: string;
let manager: McpManager;
const ctx = () => ({ cwd: tmp, signal: new AbortController().signal });

const stdioServer = (name: string, refuseFile: string) => ({
  name,
  command: process.execPath,
  args: ["--import", "tsx", fixture],
  env: { FIXTURE_REFUSE_FILE: refuseFile },
  cwd: packageDir,
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw error;
  }
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
}

const toolNamed = (name: string): Tool => {
  const tool = manager.tools().find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool;
};

beforeEach(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), "mcp-"));
  manager = new McpManager({ connectTimeoutMs: 15_000 });
});
afterEach(async () => {
  await manager.close();
  await rm(tmp, { recursive: true, force: true });
});

describe("McpManager over stdio", () => {
  it("connects, exposes namespaced exec tools, calls them and flattens results", async () => {
    const report = await manager.connect([stdioServer("echo", path.join(tmp, "refuse"))]);
    expect(report).toEqual([
      {
        server: "echo",
        ok: true,
        tools: [
          "mcp__echo__echo",
          "mcp__echo__fail",
          "mcp__echo__pid",
          "mcp__echo__mixed",
          "mcp__echo__crash",
          "mcp__echo__weird_name",
          "mcp__echo__append",
        ],
      },
    ]);
    const echo = toolNamed("mcp__echo__echo");
    expect(echo.confirmation).toBe("exec");
    expect(echo.parameters).toMatchObject({ type: "object", properties: { text: { type: "string" } } });
    expect(echo.validate({})).toBe("Invalid arguments: text: required by the tool's schema");
    expect(echo.describe({ text: "x" })).toEqual({ title: "echo (echo MCP Server)", uiKind: "other" });
    expect(await echo.execute({ text: "hi" }, ctx())).toEqual({ output: "echo: hi" });
    expect(await toolNamed("mcp__echo__fail").execute({}, ctx())).toEqual({ error: "boom" });
    expect(await toolNamed("mcp__echo__mixed").execute({}, ctx())).toEqual({
      output: "first\n[Tool 'mixed' provided image data with mime-type: image/png]\nresource text",
    });
    expect(await toolNamed("mcp__echo__weird_name").execute({}, ctx())).toEqual({ output: "weird" });
  });

  it("reconnects a dead server once per call, and reports an unreachable one clearly", async () => {
    const refuse = path.join(tmp, "refuse");
    await manager.connect([stdioServer("echo", refuse)]);
    const pid = toolNamed("mcp__echo__pid");
    const firstPid = Number((await pid.execute({}, ctx())).output);

    const crashed = await toolNamed("mcp__echo__crash").execute({}, ctx());
    expect(crashed.error).toMatch(/^MCP server "echo" disconnected during the call to "crash": /);
    const secondPid = Number((await pid.execute({}, ctx())).output);
    expect(secondPid).toBeGreaterThan(0);
    expect(secondPid).not.toBe(firstPid);

    await writeFile(refuse, "");
    await toolNamed("mcp__echo__crash").execute({}, ctx());
    const unreachable = await toolNamed("mcp__echo__echo").execute({ text: "x" }, ctx());
    expect(unreachable.error).toMatch(/^MCP server "echo" is not reachable: .+/);
    expect(unreachable.error).toContain("echo-server: refusing to start");

    await rm(refuse);
    expect(await toolNamed("mcp__echo__echo").execute({ text: "back" }, ctx())).toEqual({
      output: "echo: back",
    });
  });

  it("reports a server that cannot start without blocking the others", async () => {
    const report = await manager.connect([
      { name: "missing", command: path.join(tmp, "no-such-binary") },
      stdioServer("echo", path.join(tmp, "refuse")),
    ]);
    expect(report[0]).toMatchObject({ server: "missing", ok: false });
    expect(report[0]?.ok === false && report[0].error).toMatch(/^MCP server "missing" is not reachable: /);
    expect(report[1]).toMatchObject({ server: "echo", ok: true });
    await expect(manager.connect([{ name: "echo", url: "http://127.0.0.1:1/mcp" }])).rejects.toThrow(
      'MCP server "echo" is configured twice.',
    );
  });

  it("close() is idempotent and stops the stdio server", async () => {
    await manager.connect([stdioServer("echo", path.join(tmp, "refuse"))]);
    const serverPid = Number((await toolNamed("mcp__echo__pid").execute({}, ctx())).output);
    expect(isAlive(serverPid)).toBe(true);
    await Promise.all([manager.close(), manager.close()]);
    await manager.close();
    // close() resolves after the SDK saw the process exit; it may still be a zombie for an instant
    for (let i = 0; i < 100 && isAlive(serverPid); i++) await new Promise((r) => setTimeout(r, 20));
    expect(isAlive(serverPid)).toBe(false);
    expect(await toolNamed("mcp__echo__echo").execute({ text: "x" }, ctx())).toEqual({
      error: 'MCP server "echo" was closed.',
    });
  });
});

describe("McpManager over streamable HTTP", () => {
  let http: Server;
  let url: string;
  const seenAuth: (string | undefined)[] = [];

  beforeEach(async () => {
    seenAuth.length = 0;
    // Stateless mode: a fresh server and transport per request, as the SDK's examples do.
    http = createServer(async (req, res) => {
      seenAuth.push(req.headers.authorization);
      const server = new McpServer({ name: "http-fixture", version: "1.0.0" });
      server.registerTool("shout", { inputSchema: { text: z.string() } }, async ({ text }) => ({
        content: [{ type: "text", text: text.toUpperCase() }],
      }));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on("close", () => {
        void transport.close().then(() => server.close());
      });
      await server.connect(transport);
      await transport.handleRequest(req, res);
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  });
  afterEach(async () => {
    http.closeAllConnections();
    await new Promise<void>((resolve, reject) => http.close((e) => (e ? reject(e) : resolve())));
  });

  it("connects with headers, lists and calls tools", async () => {
    const report = await manager.connect([{ name: "web", url, headers: { Authorization: "Bearer t" } }]);
    expect(report).toEqual([{ server: "web", ok: true, tools: ["mcp__web__shout"] }]);
    expect(await toolNamed("mcp__web__shout").execute({ text: "hey" }, ctx())).toEqual({ output: "HEY" });
    expect(seenAuth.length).toBeGreaterThan(0);
    expect(seenAuth.every((a) => a === "Bearer t")).toBe(true);
  });

  it("reports an unreachable URL", async () => {
    const report = await manager.connect([{ name: "gone", url: "http://127.0.0.1:1/mcp" }]);
    expect(report[0]).toMatchObject({ server: "gone", ok: false });
    expect(report[0]?.ok === false && report[0].error).toMatch(/^MCP server "gone" is not reachable: /);
  });
});
