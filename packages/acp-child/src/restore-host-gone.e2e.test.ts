// Cross-process: the real child binary over stdio and a fake OpenAI-compatible server. The daemon goes away,
// or the child is told to stop, while a first-time question waits: what is left on disk.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { chatsDir } from "@qwen-daemon/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnChild } from "./testing/child-harness.js";
import {
  closeWorld,
  home,
  openWorld,
  RESTORE_KEY,
  server,
  text,
  workspace,
} from "./testing/restore-world.js";

beforeAll(openWorld);
afterAll(closeWorld);

describe("the daemon goes away while a first-time question waits", () => {
  it("the child sees its stdin end and persists nothing for the question, so a later load re-asks it", async () => {
    const first = await spawnChild({ qwenHome: home, modelUrl: server.url, restore: true });
    const { sessionId } = await first.agent.request("session/new", { cwd: workspace, mcpServers: [] });
    const prompt = first.agent.request("session/prompt", {
      sessionId,
      prompt: text("ask then lose the daemon"),
    });
    prompt.catch(() => undefined); // settles only by the connection ending below
    const permission = await first.nextPermission((p) => p.params.sessionId === sessionId);
    // Like a crashed daemon: the pipe closes, nobody answers, and the child shuts down on its own.
    await first.close();
    const lines = (await readFile(join(chatsDir(home, workspace), `${sessionId}.jsonl`), "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string });
    expect(lines.map((r) => r.type).filter((t) => t !== "system")).toEqual(["user", "assistant"]);
    const ledger = (await readFile(join(chatsDir(home, workspace), `${sessionId}.ledger.jsonl`), "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { state: string; code?: string });
    // The daemon went away: nothing more is written (no turn_result, no terminal), exactly as if the child had
    // been killed too; the next load closes the prompt (daemon_lost, or restored by the re-asking prompt).
    expect(lines.map((r) => r.type)).toEqual(["system", "user", "assistant"]);
    expect(lines[0]).toMatchObject({ subtype: "session_created" });
    expect(ledger.map((e) => e.state)).toEqual(["in_flight"]);

    const second = await spawnChild({ qwenHome: home, modelUrl: server.url, restore: true });
    try {
      const loaded = await second.agent.request("session/load", {
        sessionId,
        cwd: workspace,
        mcpServers: [],
      });
      expect(loaded._meta).toEqual({ [RESTORE_KEY]: true });
      expect(permission.params.toolCall.toolCallId).toBeTruthy();
    } finally {
      await second.kill();
    }
  });
});

describe("SIGTERM while a first-time question waits", () => {
  it("closes cleanly: the prompt is ledgered interrupted, the question stays restorable, the process exits", async () => {
    const child = await spawnChild({ qwenHome: home, modelUrl: server.url, restore: true });
    const { sessionId } = await child.agent.request("session/new", { cwd: workspace, mcpServers: [] });
    const prompt = child.agent.request("session/prompt", {
      sessionId,
      prompt: text("ask then get terminated"),
    });
    prompt.catch(() => undefined); // settles only by the shutdown below
    await child.nextPermission((p) => p.params.sessionId === sessionId);
    const exited = new Promise<number | null>((resolve) => child.proc.once("exit", (code) => resolve(code)));
    child.proc.kill("SIGTERM");
    expect(await exited).toBe(0);
    const dir = chatsDir(home, workspace);
    const types = (await readFile(join(dir, `${sessionId}.jsonl`), "utf8"))
      .trim()
      .split("\n")
      .map((l) => (JSON.parse(l) as { type: string }).type);
    expect(types.filter((t) => t !== "system")).toEqual(["user", "assistant"]);
    const ledger = (await readFile(join(dir, `${sessionId}.ledger.jsonl`), "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { state: string });
    expect(ledger.at(-1)?.state).toBe("interrupted");
    await child.close();
  });
});
