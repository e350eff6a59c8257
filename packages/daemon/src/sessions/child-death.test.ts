import { describe, expect, it } from "vitest";
import { questionRequest } from "../testing/question.js";
import { createTestDaemon, parseSse, waitFor } from "../testing/test-daemon.js";

describe("a dying child", () => {
  it("ends its sessions with session_died, fails their turns and releases their permission waits", async () => {
    const d = createTestDaemon({
      agent: {
        prompt: async (params, peer) => {
          await peer.requestPermission(questionRequest(String(params.sessionId)));
          return { stopReason: "end_turn" };
        },
      },
    });
    const { sessionId } = await d.createSession();
    const events = await d.request("GET", `/session/${sessionId}/events`);
    const { promptId } = await (
      await d.request("POST", `/session/${sessionId}/prompt`, {
        body: { prompt: [{ type: "text", text: "q" }] },
      })
    ).json();
    await waitFor(() => d.sessions.mediator.hasPending(sessionId), "question");
    d.agent.crash();
    const frames = parseSse(await events.text());
    const error = frames.find((f) => f.event === "turn_error");
    expect(error?.data?.data).toMatchObject({ sessionId, promptId, code: "session_died" });
    const died = frames.at(-1);
    expect(died?.event).toBe("session_died");
    expect(died?.data?.data).toMatchObject({ sessionId, reason: expect.any(String) });
    expect(d.sessions.mediator.hasPending(sessionId)).toBe(false);
    expect((await d.request("GET", `/session/${sessionId}/status`)).status).toBe(404);
  });

  it("is replaced by a fresh child on next use", async () => {
    const d = createTestDaemon();
    await d.createSession();
    d.agent.crash();
    await waitFor(() => d.sessions.registry.liveCount === 0, "session ended");
    const again = await d.createSession();
    expect(again.sessionId).toBe("sess-2");
    expect(d.agent.spawns).toBe(2);
  });

  it("fails a load in flight with 503 and frees its slot", async () => {
    let release!: () => void;
    const d = createTestDaemon({
      maxSessions: 1,
      agent: {
        persisted: { s1: [] },
        load: () =>
          new Promise((resolve) => {
            release = () => resolve({});
          }),
      },
    });
    const pending = d.request("POST", "/session/s1/load", { body: {} });
    await waitFor(() => d.agent.callsOf("session/load").length === 1, "load at the child");
    d.agent.crash();
    const res = await pending;
    expect(res.status).toBe(503);
    expect((await res.json()).code).toBe("agent_unavailable");
    release();
    expect((await d.request("POST", "/session", { body: {} })).status).toBe(200);
  });
});
