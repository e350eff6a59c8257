import { describe, expect, it } from "vitest";
import { ManualClock } from "../events/manual-clock.js";
import { editRequest } from "../testing/question.js";
import type { AgentPeer } from "../testing/scripted-agent.js";
import { createTestDaemon, readSseUntil, waitFor } from "../testing/test-daemon.js";

const text = (t: string) => ({ prompt: [{ type: "text", text: t }] });

/** A prompt script whose turns end only when the test releases them (or the daemon cancels). */
function gatedPrompts() {
  const gates: Array<() => void> = [];
  const script = (_params: unknown, peer: AgentPeer) =>
    new Promise<Record<string, unknown>>((resolve) => {
      gates.push(() => resolve({ stopReason: "end_turn" }));
      peer.cancelled.addEventListener("abort", () => resolve({ stopReason: "cancelled" }));
    });
  return { gates, script };
}

describe("POST /session/:id/prompt", () => {
  it("answers 202 {promptId, messageId, lastEventId, eventEpoch}; the outcome arrives on SSE", async () => {
    const d = createTestDaemon();
    const { sessionId, clientId } = await d.createSession();
    const events = await d.request("GET", `/session/${sessionId}/events`);
    const res = await d.request("POST", `/session/${sessionId}/prompt`, {
      body: text("hello"),
      headers: { "X-Qwen-Client-Id": clientId },
    });
    expect(res.status).toBe(202);
    const body = await res.json();
    expect(body).toEqual({
      promptId: expect.any(String),
      messageId: expect.any(String),
      lastEventId: 0,
      eventEpoch: events.headers.get("X-Qwen-Event-Epoch"),
    });
    const frames = await readSseUntil(events, (f) => f.some((x) => x.event === "turn_complete"));
    const typed = frames.filter((f) => f.event !== undefined);
    // A prompt that starts at once gets no pending_prompt_* events (like the reference daemon).
    expect(typed.map((f) => [f.id, f.event])).toEqual([
      [1, "session_update"],
      [2, "turn_complete"],
    ]);
    for (const f of typed)
      expect(f.data).toMatchObject({ v: 1, promptId: body.promptId, originatorClientId: clientId });
    expect(typed[0]?.data?.data).toEqual({
      sessionId,
      update: {
        sessionUpdate: "user_message_chunk",
        content: { type: "text", text: "hello" },
        // The message id the agent is told to save the message under, so a replay after a load matches.
        messageId: body.messageId,
        _meta: { serverTimestamp: expect.any(Number), source: "bridge-echo" },
      },
    });
    expect(typed[1]?.data?.data).toEqual({ sessionId, stopReason: "end_turn", promptId: body.promptId });
    expect(d.agent.callsOf("session/prompt")[0]?.params._meta).toEqual({
      "qwen.daemon.promptId": body.promptId,
      "qwen.daemon.userMessageId": body.messageId,
    });
    expect(body.messageId).not.toBe(body.promptId);
  });

  it("echoes a huge prompt block clipped (the ring and every subscriber hold the echo); the agent gets it whole", async () => {
    const d = createTestDaemon();
    const { sessionId, clientId } = await d.createSession();
    const text = "x".repeat(5_000_000);
    const res = await d.request("POST", `/session/${sessionId}/prompt`, {
      body: { prompt: [{ type: "text", text }] },
      headers: { "X-Qwen-Client-Id": clientId },
    });
    expect(res.status).toBe(202);
    const bus = d.sessions.require(sessionId).bus;
    await waitFor(() => bus.eventsAfter(0).some((e) => e.type === "turn_complete"), "turn end");
    const echo = bus.eventsAfter(0).find((e) => e.type === "session_update");
    const update = echo?.data.update as { content: { text: string }; _meta: Record<string, unknown> };
    expect(update.content.text.length).toBeLessThan(100_000);
    expect(update._meta).toMatchObject({
      source: "bridge-echo",
      truncated: { originalBlockChars: JSON.stringify({ type: "text", text }).length },
    });
    expect(bus.ringBytes).toBeLessThan(200_000);
    const sent = d.agent.callsOf("session/prompt")[0]?.params.prompt as Array<{ text: string }>;
    expect(sent[0]?.text).toHaveLength(5_000_000);
  });

  it.each([
    [{}, "`prompt` is required and must be a non-empty array of content blocks"],
    [{ prompt: [] }, "`prompt` is required and must be a non-empty array of content blocks"],
    [{ prompt: "hi" }, "`prompt` is required and must be a non-empty array of content blocks"],
    [{ prompt: ["hi"] }, "each `prompt` element must be an object (content block)"],
    [{ prompt: [{ text: "no type" }] }, "each `prompt` element must be an object (content block)"],
    [{ prompt: [{ type: "text" }] }, "a `text` content block needs a string `text`"],
    [
      { prompt: [{ type: "bogus" }] },
      'unsupported content block type "bogus" (expected one of text, image, audio, resource_link, resource)',
    ],
    [
      { prompt: [{ type: "image", data: "AAAA" }] },
      "invalid `image` content block at `mimeType`: Invalid input: expected string, received undefined",
    ],
    [
      { prompt: [{ type: "resource_link", uri: 5, name: "x" }] },
      "invalid `resource_link` content block at `uri`: Invalid input: expected string, received number",
    ],
  ])("rejects %o with 400", async (body, error) => {
    const d = createTestDaemon();
    const { sessionId } = await d.createSession();
    const res = await d.request("POST", `/session/${sessionId}/prompt`, { body });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error });
  });

  it.each([0, -5, 1.5, "100"])("rejects deadlineMs %o with 400 invalid_deadline_ms", async (deadlineMs) => {
    const d = createTestDaemon();
    const { sessionId } = await d.createSession();
    const res = await d.request("POST", `/session/${sessionId}/prompt`, {
      body: { ...text("x"), deadlineMs },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: "`deadlineMs` must be a positive integer (milliseconds)",
      code: "invalid_deadline_ms",
    });
  });

  it("rejects an unregistered client id (400) and a malformed one (400) before admitting", async () => {
    const d = createTestDaemon();
    const { sessionId } = await d.createSession();
    const unregistered = await d.request("POST", `/session/${sessionId}/prompt`, {
      body: text("x"),
      headers: { "X-Qwen-Client-Id": "client_ghost" },
    });
    expect(unregistered.status).toBe(400);
    expect((await unregistered.json()).code).toBe("invalid_client_id");
    for (const bad of ["has space", "x".repeat(129), "semi;colon"]) {
      const res = await d.request("POST", `/session/${sessionId}/prompt`, {
        body: text("x"),
        headers: { "X-Qwen-Client-Id": bad },
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        error: "`X-Qwen-Client-Id` must be a non-empty token of 128 characters or fewer",
        code: "invalid_client_id",
      });
    }
    expect(d.agent.callsOf("session/prompt")).toHaveLength(0);
  });

  it("runs prompts one at a time in FIFO order and refuses beyond the queue bound with 503", async () => {
    const { gates, script } = gatedPrompts();
    const d = createTestDaemon({ maxPendingPromptsPerSession: 2, agent: { prompt: script } });
    const { sessionId } = await d.createSession();
    const events = await d.request("GET", `/session/${sessionId}/events`);
    const a = await (await d.request("POST", `/session/${sessionId}/prompt`, { body: text("a") })).json();
    const b = await (await d.request("POST", `/session/${sessionId}/prompt`, { body: text("b") })).json();
    const full = await d.request("POST", `/session/${sessionId}/prompt`, { body: text("c") });
    expect(full.status).toBe(503);
    expect(full.headers.get("Retry-After")).toBe("5");
    expect(await full.json()).toEqual({
      error: `Prompt queue full for session "${sessionId}" (2/2 pending)`,
      code: "prompt_queue_full",
      sessionId,
      limit: 2,
      pendingCount: 2,
    });
    const pending = await (await d.request("GET", `/session/${sessionId}/pending-prompts`)).json();
    expect(
      pending.pendingPrompts.map((p: { promptId: string; state: string; text: string }) => [
        p.promptId,
        p.state,
        p.text,
      ]),
    ).toEqual([
      [a.promptId, "running", "a"],
      [b.promptId, "queued", "b"],
    ]);
    expect(typeof pending.pendingPrompts[0].queuedAt).toBe("number");
    await waitFor(() => gates.length === 1, "first prompt at the child");
    expect(d.agent.callsOf("session/prompt")).toHaveLength(1);
    gates[0]?.();
    await waitFor(() => gates.length === 2, "second prompt at the child");
    expect((d.agent.callsOf("session/prompt")[1]?.params.prompt as unknown[] | undefined)?.[0]).toEqual({
      type: "text",
      text: "b",
    });
    gates[1]?.();
    await waitFor(() => d.sessions.require(sessionId).queue.pendingCount === 0, "queue drained");
    // Only the prompt that waited is announced as pending.
    const frames = await readSseUntil(events, (f) => f.some((x) => x.event === "pending_prompt_completed"));
    const pendingEvents = frames.filter((f) => f.event?.startsWith("pending_prompt"));
    expect(pendingEvents.map((f) => [f.event, f.data?.promptId])).toEqual([
      ["pending_prompt_added", b.promptId],
      ["pending_prompt_started", b.promptId],
      ["pending_prompt_completed", b.promptId],
    ]);
    expect(pendingEvents[0]?.data?.data).toEqual({
      sessionId,
      text: "b",
      queuedAt: expect.any(Number),
      position: 1,
      promptId: b.promptId,
    });
    expect(pendingEvents[2]?.data?.data).toEqual({ sessionId, state: "completed", promptId: b.promptId });
    // The 202 says where a waiting prompt stands; one that started at once has no place in line.
    expect(a.queuePosition).toBeUndefined();
    expect(b.queuePosition).toBe(1);
  });

  it("withdraws a waiting prompt (204): it ends as prompt_withdrawn, the ones behind move up; a running one is 409", async () => {
    const { gates, script } = gatedPrompts();
    const d = createTestDaemon({ agent: { prompt: script } });
    const { sessionId, clientId } = await d.createSession();
    const events = await d.request("GET", `/session/${sessionId}/events`);
    const send = async (t: string) =>
      (
        await d.request("POST", `/session/${sessionId}/prompt`, {
          body: text(t),
          headers: { "x-qwen-client-id": clientId },
        })
      ).json();
    const a = await send("a");
    const b = await send("b");
    const c = await send("c");
    expect([b.queuePosition, c.queuePosition]).toEqual([1, 2]);
    const withdraw = (promptId: string) =>
      d.request("DELETE", `/session/${sessionId}/pending-prompts/${promptId}`, {
        headers: { "x-qwen-client-id": clientId },
      });
    expect((await withdraw(b.promptId)).status).toBe(204);
    const pending = await (await d.request("GET", `/session/${sessionId}/pending-prompts`)).json();
    expect(pending.pendingPrompts.map((p: { text: string }) => p.text)).toEqual(["a", "c"]);
    expect(d.sessions.require(sessionId).queue.positionOf(c.promptId)).toBe(1);
    // Started already: cancel is the way; withdrawn or never known: 404.
    const running = await withdraw(a.promptId);
    expect(running.status).toBe(409);
    expect((await running.json()).code).toBe("prompt_running");
    const again = await withdraw(b.promptId);
    expect(again.status).toBe(404);
    expect((await again.json()).code).toBe("prompt_not_queued");
    const frames = await readSseUntil(events, (f) =>
      f.some((x) => x.event === "pending_prompt_completed" && x.data?.promptId === b.promptId),
    );
    expect(
      frames
        .filter((f) => f.data?.promptId === b.promptId)
        .map((f) => [f.event, (f.data?.data as { code?: string } | undefined)?.code]),
    ).toEqual([
      ["pending_prompt_added", undefined],
      ["turn_error", "prompt_withdrawn"],
      ["pending_prompt_completed", undefined],
    ]);
    gates[0]?.();
    await waitFor(() => gates.length === 2, "c at the child");
    expect((d.agent.callsOf("session/prompt")[1]?.params.prompt as unknown[] | undefined)?.[0]).toEqual({
      type: "text",
      text: "c",
    });
    gates[1]?.();
  });

  it("on deadline expiry reports turn_error prompt_deadline_exceeded and cancels the running turn", async () => {
    const clock = new ManualClock(1_000);
    const { script } = gatedPrompts();
    const d = createTestDaemon({ clock, agent: { prompt: script } });
    const { sessionId } = await d.createSession();
    const events = await d.request("GET", `/session/${sessionId}/events`);
    const { promptId } = await (
      await d.request("POST", `/session/${sessionId}/prompt`, { body: { ...text("slow"), deadlineMs: 50 } })
    ).json();
    await waitFor(() => d.agent.callsOf("session/prompt").length === 1, "prompt at the child");
    clock.advance(50);
    const frames = await readSseUntil(events, (f) => f.some((x) => x.event === "turn_error"));
    const error = frames.find((f) => f.event === "turn_error");
    expect(error?.data?.data).toEqual({
      sessionId,
      message: "Prompt exceeded its 50ms deadline",
      code: "prompt_deadline_exceeded",
      promptId,
    });
    expect(frames.some((f) => f.event === "turn_complete")).toBe(false);
    await waitFor(() => d.agent.callsOf("session/cancel").length === 1, "session/cancel at the child");
  });
});

describe("POST /session/:id/cancel", () => {
  it("answers 204 when idle and changes nothing", async () => {
    const d = createTestDaemon();
    const { sessionId } = await d.createSession();
    const res = await d.request("POST", `/session/${sessionId}/cancel`, { body: {} });
    expect(res.status).toBe(204);
    expect(d.agent.callsOf("session/cancel")).toHaveLength(0);
  });

  it("cancels the active prompt: prompt_cancelled, session/cancel, its permission resolved agent_cancelled", async () => {
    const answers: Array<Record<string, unknown>> = [];
    const d = createTestDaemon({
      agent: {
        prompt: async (params, peer) => {
          answers.push(await peer.requestPermission(editRequest(String(params.sessionId))));
          return { stopReason: peer.cancelled.aborted ? "cancelled" : "end_turn" };
        },
      },
    });
    const { sessionId } = await d.createSession();
    const events = await d.request("GET", `/session/${sessionId}/events`);
    const { promptId } = await (
      await d.request("POST", `/session/${sessionId}/prompt`, { body: text("edit") })
    ).json();
    await waitFor(() => d.sessions.mediator.hasPending(sessionId), "permission request");
    const res = await d.request("POST", `/session/${sessionId}/cancel`, { body: {} });
    expect(res.status).toBe(204);
    const frames = await readSseUntil(events, (f) => f.some((x) => x.event === "turn_complete"));
    const types = frames.filter((f) => f.event).map((f) => f.event);
    expect(types).toContain("prompt_cancelled");
    expect(types).toContain("permission_resolved");
    expect(frames.find((f) => f.event === "turn_complete")?.data?.data).toEqual({
      sessionId,
      stopReason: "cancelled",
      promptId,
    });
    expect(answers[0]).toEqual({
      outcome: { outcome: "cancelled" },
      _meta: { "qwen.daemon.permissionCancelReason": "agent_cancelled" },
    });
    expect(d.agent.callsOf("session/cancel")).toHaveLength(1);
  });
});

describe("POST /session/:id/continue", () => {
  it("runs an accepted continuation as a tracked prompt with the continue meta", async () => {
    const d = createTestDaemon({
      agent: { continueDecision: { accepted: true, interruption: "interrupted_turn" } },
    });
    const { sessionId } = await d.createSession();
    const res = await d.request("POST", `/session/${sessionId}/continue`, { body: {} });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({
      accepted: true,
      interruption: "interrupted_turn",
      promptId: expect.any(String),
      lastEventId: 0,
      eventEpoch: expect.any(String),
    });
    await waitFor(() => d.agent.callsOf("session/prompt").length === 1, "continuation prompt");
    const sent = d.agent.callsOf("session/prompt")[0]?.params;
    expect(sent?._meta).toEqual({
      "qwen.daemon.continueLastTurn": true,
      "qwen.daemon.promptId": body.promptId,
    });
    expect(sent?.prompt).toEqual([]);
  });

  it("reports a refusal, and an agent without the method, as accepted:false", async () => {
    const refused = createTestDaemon({
      agent: { continueDecision: { accepted: false, interruption: "none" } },
    });
    const a = await refused.createSession();
    const r1 = await (await refused.request("POST", `/session/${a.sessionId}/continue`, { body: {} })).json();
    expect(r1).toMatchObject({ accepted: false, interruption: "none", lastEventId: 0 });
    const old = createTestDaemon({ agent: { continueDecision: "method_not_found" } });
    const b = await old.createSession();
    const r2 = await (await old.request("POST", `/session/${b.sessionId}/continue`, { body: {} })).json();
    expect(r2).toMatchObject({ accepted: false, interruption: "none" });
    expect(refused.agent.callsOf("session/prompt")).toHaveLength(0);
  });
});
