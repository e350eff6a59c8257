// The client registry over the routes: clients not seen for the idle timeout are forgotten by the reaper's
// pass, unless they listen on an event stream or were named on a request meanwhile.
import { describe, expect, it } from "vitest";
import { ManualClock } from "../events/manual-clock.js";
import { questionRequest } from "../testing/question.js";
import { createTestDaemon, waitFor } from "../testing/test-daemon.js";

describe("client expiry", () => {
  it("forgets clients idle for the timeout; one on an event stream, or named on a request, stays", async () => {
    const clock = new ManualClock(0);
    const d = createTestDaemon({ clock });
    const idle = await d.createSession();
    const listening = await d.createSession();
    const active = await d.createSession();
    const { sessionId } = idle;
    const stream = await d.request("GET", `/session/${sessionId}/events`, {
      headers: { "X-Qwen-Client-Id": listening.clientId },
    });
    clock.advance(50_000);
    const beat = await d.request("POST", `/session/${sessionId}/heartbeat`, {
      body: {},
      headers: { "X-Qwen-Client-Id": active.clientId },
    });
    expect(beat.status).toBe(200);
    clock.advance(20_000);
    d.sessions.reapIdle(60_000);
    const clients = d.sessions.require(sessionId).clients;
    expect(clients.has(idle.clientId)).toBe(false);
    expect(clients.has(listening.clientId)).toBe(true);
    expect(clients.has(active.clientId)).toBe(true);
    const refused = await d.request("POST", `/session/${sessionId}/cancel`, {
      body: {},
      headers: { "X-Qwen-Client-Id": idle.clientId },
    });
    expect((await refused.json()).code).toBe("invalid_client_id");
    await stream.body?.cancel();
  });

  it("keeps every client of a session whose question waits, so the designated originator can answer hours later", async () => {
    const clock = new ManualClock(0);
    const d = createTestDaemon({
      clock,
      permissionPolicy: "designated",
      agent: {
        prompt: async (params, peer) => {
          await peer.requestPermission(questionRequest(String(params.sessionId)));
          return { stopReason: "end_turn" };
        },
      },
    });
    const { sessionId, clientId } = await d.createSession();
    await d.request("POST", `/session/${sessionId}/prompt`, {
      body: { prompt: [{ type: "text", text: "q" }] },
      headers: { "X-Qwen-Client-Id": clientId },
    });
    await waitFor(() => d.sessions.mediator.hasPending(sessionId), "question");
    clock.advance(3 * 60 * 60_000);
    d.sessions.reapIdle(60_000);
    expect(d.sessions.require(sessionId).clients.has(clientId)).toBe(true);
    const [requestId] = d.sessions.mediator.pending(sessionId).map((p) => p.requestId);
    const vote = await d.request("POST", `/session/${sessionId}/permission/${requestId}`, {
      body: { outcome: { outcome: "selected", optionId: "proceed_once" }, answers: { "0": "Blue" } },
      headers: { "X-Qwen-Client-Id": clientId },
    });
    expect(vote.status).toBe(200);
  });
});
