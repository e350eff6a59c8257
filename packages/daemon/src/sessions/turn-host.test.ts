// The cancel order of turnHost.interrupt: session/cancel reaches the child before the prompt's pending
// permission requests are answered `cancelled`, so the child reads them as its own abort, not a Cancel vote.
import { describe, expect, it } from "vitest";
import { ChildGoneError } from "../bridge/child-connection.js";
import { ManualClock } from "../events/manual-clock.js";
import { makeMediator, req } from "../permission/mediator-harness.js";
import type { LiveSession } from "./live-session.js";
import type { QueuedPrompt } from "./prompt-queue.js";
import { turnHost } from "./turn-host.js";

function setup(cancel: () => Promise<void>) {
  const { mediator } = makeMediator();
  const log: string[] = [];
  const pendingAtCancel: string[][] = [];
  const session = {
    sessionId: "s1",
    child: {
      cancel: (sessionId: string) => {
        expect(sessionId).toBe("s1");
        pendingAtCancel.push(mediator.pending("s1").map((p) => p.requestId));
        return cancel();
      },
    },
  } as unknown as LiveSession;
  const host = turnHost(session, {
    mediator,
    clock: new ManualClock(0),
    log: (line) => log.push(line),
    settled: async () => {},
  });
  const entry = { promptId: "p1" } as QueuedPrompt;
  return { mediator, host, entry, log, pendingAtCancel };
}

describe("turnHost.interrupt", () => {
  it("sends session/cancel first, then answers the prompt's pending requests cancelled (agent_cancelled)", async () => {
    const { mediator, host, entry, pendingAtCancel } = setup(async () => {});
    const ours = mediator.request(req({ requestId: "r1", promptId: "p1" }));
    const other = mediator.request(req({ requestId: "r2", promptId: "p2" }));
    host.interrupt(entry);
    expect(pendingAtCancel).toEqual([["r1", "r2"]]);
    expect(await ours).toEqual({ outcome: { outcome: "cancelled" }, reason: "agent_cancelled" });
    // Another prompt's request is not this cancel's business.
    expect(mediator.pending("s1").map((p) => p.requestId)).toEqual(["r2"]);
    mediator.cancelSession("s1", "session_closed");
    await other;
  });

  it("still answers the requests when session/cancel cannot be sent (the child is gone)", async () => {
    const { mediator, host, entry, log } = setup(() => Promise.reject(new Error("agent process ended")));
    const ours = mediator.request(req({ requestId: "r1", promptId: "p1" }));
    host.interrupt(entry);
    expect(await ours).toMatchObject({ reason: "agent_cancelled" });
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(log).toEqual(["qwen serve: session/cancel for s1 failed: Error: agent process ended"]);
  });
});

describe("turnHost.dispatch", () => {
  function dispatching(prompt: () => Promise<Record<string, unknown>>) {
    const { mediator } = makeMediator();
    const settled: string[] = [];
    const session = {
      sessionId: "s1",
      turnStarted: () => {},
      child: { prompt },
      bus: { publish: () => {} },
      clients: { ids: () => [] },
    } as unknown as LiveSession;
    const host = turnHost(session, {
      mediator,
      clock: new ManualClock(0),
      log: () => {},
      settled: async (entry) => {
        settled.push(entry.promptId);
      },
    });
    const entry = (kind: QueuedPrompt["kind"]) =>
      ({ promptId: `${kind}-1`, kind, text: "hi", prompt: [], meta: {} }) as unknown as QueuedPrompt;
    return { host, entry, settled };
  }

  it("closes a client's prompt in the prompt journal once the agent answered it, result or error", async () => {
    const ok = dispatching(async () => ({ stopReason: "end_turn" }));
    expect(await ok.host.dispatch(ok.entry("user"))).toEqual({ kind: "complete", stopReason: "end_turn" });
    expect(ok.settled).toEqual(["user-1"]);
    const refused = dispatching(() => Promise.reject({ code: -32603, message: "Internal error" }));
    expect(await refused.host.dispatch(refused.entry("user"))).toMatchObject({ kind: "error" });
    expect(refused.settled).toEqual(["user-1"]);
  });

  it("leaves it open when the child died with it (the ledger tells at the next load), and for daemon prompts", async () => {
    const gone = dispatching(() =>
      Promise.reject(new ChildGoneError({ code: null, signal: "SIGKILL", reason: "killed" })),
    );
    expect(await gone.host.dispatch(gone.entry("user"))).toMatchObject({
      kind: "error",
      code: "session_died",
    });
    expect(gone.settled).toEqual([]);
    const restore = dispatching(async () => ({ stopReason: "end_turn" }));
    await restore.host.dispatch(restore.entry("restore"));
    await restore.host.dispatch(restore.entry("continue"));
    expect(restore.settled).toEqual([]);
  });
});
