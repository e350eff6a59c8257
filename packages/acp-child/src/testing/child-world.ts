// What the child's cross-process tests share: the fake model over HTTP with one scratch QWEN_HOME and workspace
// per test file, the MCP fixture of core's own tests as a stdio server, and the wire keys and bodies they spell
// out (literally, so a renamed constant in the code under test shows up as a failure). Test-only.
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type FakeHandler, type FakeOpenAIServer, startFakeOpenAIServer } from "@qwen-daemon/core/testing";

export const CANCEL_REASON_KEY = "qwen.daemon.permissionCancelReason";
export const PROMPT_ID_KEY = "qwen.daemon.promptId";
export const RESTORE_APPROVALS_KEY = "qwen.daemon.restorePendingApprovals";

export const PROCEED_ONCE = { outcome: { outcome: "selected", optionId: "proceed_once" } } as const;

export const text = (t: string) => [{ type: "text" as const, text: t }];

// The MCP fixture of core's own tests, run with tsx given by absolute URL (the server's cwd is the workspace).
const ECHO_SERVER = fileURLToPath(new URL("../../../core/src/mcp/fixtures/echo-server.ts", import.meta.url));
const TSX_LOADER = pathToFileURL(
  join(dirname(createRequire(import.meta.url).resolve("tsx/package.json")), "dist/loader.mjs"),
).href;

/** core's MCP fixture as a stdio server for session/new, named `name`, with `env` set for it. */
export function fixtureMcpServer(name: string, env: { name: string; value: string }[] = []) {
  return { name, command: process.execPath, args: ["--import", TSX_LOADER, ECHO_SERVER], env };
}

export interface ChildWorld {
  server: FakeOpenAIServer;
  home: string;
  workspace: string;
  /** Stops the fake model and removes the folders. */
  close(): Promise<void>;
}

/** Starts the fake model with `handler` and makes a QWEN_HOME and a workspace named after `prefix`. */
export async function openChildWorld(handler: FakeHandler, prefix: string): Promise<ChildWorld> {
  const server = await startFakeOpenAIServer({ handler });
  const home = await mkdtemp(join(tmpdir(), `${prefix}-home-`));
  const workspace = await mkdtemp(join(tmpdir(), `${prefix}-ws-`));
  return {
    server,
    home,
    workspace,
    async close() {
      await server.close();
      await rm(home, { recursive: true, force: true });
      await rm(workspace, { recursive: true, force: true });
    },
  };
}
