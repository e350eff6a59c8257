import { messageText } from "@qwen-daemon/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChildHarness, spawnChild } from "./testing/child-harness.js";
import {
  closeWorld,
  crashWhileAsking,
  finalUpdate,
  home,
  loadWhileLive,
  MISSING_TEXT,
  ORPHAN_TEXT,
  openWorld,
  RESTORE_KEY,
  server,
  sessions,
  text,
  toolMessages,
  workspace,
} from "./testing/restore-world.js";

// The crash spawns and kills a child: as long as a test may take (the config's testTimeout), not a hook's 10 s.
beforeAll(async () => {
  await openWorld();
  await crashWhileAsking(["off", "continue_off"]);
}, 20_000);
afterAll(closeWorld);

describe("a child without the switch", () => {
  let child: ChildHarness;
  beforeAll(async () => {
    child = await spawnChild({ qwenHome: home, modelUrl: server.url, restore: false });
  });
  afterAll(async () => {
    await child?.close();
  });

  it("replays the dangling question as failed with the exact text, no hint, and repairs it with the orphan text", async () => {
    const { sessionId, callId } = sessions.off;
    const response = await child.agent.request("session/load", { sessionId, cwd: workspace, mcpServers: [] });
    expect(response._meta ?? {}).not.toHaveProperty(RESTORE_KEY);
    expect(finalUpdate(child.updatesFor(sessionId), callId)?.update).toEqual({
      sessionUpdate: "tool_call_update",
      toolCallId: callId,
      status: "failed",
      content: [{ type: "content", content: { type: "text", text: MISSING_TEXT } }],
    });
    const before = server.requests.length;
    expect(
      await child.agent.request("session/prompt", { sessionId, prompt: text("hello after restart") }),
    ).toMatchObject({
      stopReason: "end_turn",
    });
    expect(toolMessages(before)).toContainEqual(
      expect.objectContaining({ tool_call_id: callId, content: ORPHAN_TEXT }),
    );
  });

  it("continue accepts the interrupted turn and runs it as a prompt carrying the continue key", async () => {
    const { sessionId } = sessions.continue_off;
    await child.agent.request("session/resume", { sessionId, cwd: workspace, mcpServers: [] });
    expect(await child.agent.request("qwen/control/session/continue", { sessionId })).toEqual({
      accepted: true,
      interruption: "interrupted_turn",
    });
    const before = server.requests.length;
    const result = await child.agent.request("session/prompt", {
      sessionId,
      prompt: [],
      _meta: { "qwen.daemon.continueLastTurn": true },
    });
    expect(result).toMatchObject({ stopReason: "end_turn" });
    expect(server.requests.length).toBeGreaterThan(before);
  });

  it("a load while the question is live leaves the call open here too", () => loadWhileLive(child));

  it("ignores a restore key: the restore-only path never runs with the switch off", async () => {
    const { sessionId } = await child.agent.request("session/new", { cwd: workspace, mcpServers: [] });
    const result = await child.agent.request("session/prompt", {
      sessionId,
      prompt: text("hello plain"),
      _meta: { [RESTORE_KEY]: true },
    });
    expect(result).toMatchObject({ stopReason: "end_turn" });
    expect(messageText(server.requests.at(-1)!.messages.at(-1))).toBe("hello plain");
  });
});
