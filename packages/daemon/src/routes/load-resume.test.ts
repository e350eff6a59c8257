import { describe, expect, it } from "vitest";
import { createTestDaemon, readSseUntil, TEST_WORKSPACE, waitFor } from "../testing/test-daemon.js";

const history = [
  { sessionUpdate: "user_message_chunk", content: { type: "text", text: "hello" } },
  { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi there" } },
  { sessionUpdate: "tool_call", toolCallId: "call-1", title: "ls", kind: "read", status: "completed" },
];

describe("POST /session/:id/load", () => {
  it("returns the replayed history as compactedReplay ids 1..n and continues live ids at n+1", async () => {
    const d = createTestDaemon({ agent: { persisted: { old: history } } });
    const res = await d.request("POST", "/session/old/load", { body: {} });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      sessionId: "old",
      workspaceCwd: TEST_WORKSPACE,
      attached: false,
      hasActivePrompt: false,
      lastEventId: 3,
    });
    expect(body.clientId).toMatch(/^client_/);
    expect(typeof body.eventEpoch).toBe("string");
    expect(body.compactedReplay.map((e: { id: number }) => e.id)).toEqual([1, 2, 3]);
    expect(body.compactedReplay[1]).toMatchObject({
      id: 2,
      v: 1,
      type: "session_update",
      data: { sessionId: "old", update: history[1] },
    });
    expect(typeof body.compactedReplay[0]._meta.serverTimestamp).toBe("number");
    expect(d.agent.callsOf("session/load")[0]?.params).toMatchObject({
      sessionId: "old",
      cwd: TEST_WORKSPACE,
    });

    const events = await d.request("GET", "/session/old/events", { headers: { "Last-Event-ID": "3" } });
    expect(events.headers.get("X-Qwen-Event-Epoch")).toBe(body.eventEpoch);
    await d.request("POST", "/session/old/prompt", { body: { prompt: [{ type: "text", text: "next" }] } });
    const frames = await readSseUntil(events, (f) => f.some((x) => x.event === "session_update"));
    expect(frames.find((f) => f.event === "session_update")?.id).toBe(4);
  });

  it("a second load of a live session attaches without asking the child again", async () => {
    const d = createTestDaemon({ agent: { persisted: { old: history } } });
    const first = await (await d.request("POST", "/session/old/load", { body: {} })).json();
    const second = await (await d.request("POST", "/session/old/load", { body: {} })).json();
    expect(second).toMatchObject({ sessionId: "old", attached: true, lastEventId: 3 });
    expect(second.compactedReplay).toEqual(first.compactedReplay);
    expect(second.clientId).not.toBe(first.clientId);
    expect(d.agent.callsOf("session/load")).toHaveLength(1);
  });

  it("concurrent loads of one id make one child call", async () => {
    const d = createTestDaemon({ agent: { persisted: { old: history } } });
    const [a, b] = await Promise.all([
      d.request("POST", "/session/old/load", { body: {} }),
      d.request("POST", "/session/old/load", { body: {} }),
    ]);
    const bodies = [await a.json(), await b.json()];
    expect(bodies.map((x) => x.attached).sort()).toEqual([false, true]);
    expect(d.agent.callsOf("session/load")).toHaveLength(1);
  });

  it("validates the session id before any lookup (400), and 404s unknown ones", async () => {
    const d = createTestDaemon();
    const bad = await d.request("POST", "/session/bad..id/load", { body: {} });
    expect(bad.status).toBe(400);
    expect((await bad.json()).code).toBe("invalid_session_id");
    expect(d.agent.callsOf("session/load")).toHaveLength(0);
    const missing = await d.request("POST", "/session/missing/load", { body: {} });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({
      error: 'No session with id "missing"',
      code: "session_not_found",
      sessionId: "missing",
    });
    // A failed load leaves nothing behind and holds no session slot.
    expect(d.service.registry.liveCount).toBe(0);
  });

  it("rejects another workspace with 400 workspace_mismatch", async () => {
    const d = createTestDaemon({ agent: { persisted: { old: history } } });
    const res = await d.request("POST", "/session/old/load", { body: { cwd: "/other" } });
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe("workspace_mismatch");
  });
});

describe("POST /session/:id/resume", () => {
  it("restores without replay: no compactedReplay, lastEventId 0", async () => {
    const d = createTestDaemon({ agent: { persisted: { old: history } } });
    const res = await d.request("POST", "/session/old/resume", { body: {} });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ sessionId: "old", attached: false, lastEventId: 0, hasActivePrompt: false });
    expect(body.compactedReplay).toBeUndefined();
    expect(d.agent.callsOf("session/resume")).toHaveLength(1);
    await waitFor(() => d.service.registry.get("old") !== undefined, "live session");
  });
});
