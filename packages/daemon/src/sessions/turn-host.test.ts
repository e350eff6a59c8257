// The cancel order of turnHost.interrupt: session/cancel reaches the child before the prompt's pending
// permission requests are answered `cancelled`, so the child reads them as its own abort, not a Cancel vote.
import { describe, expect, it } from "vitest";
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
  const host = turnHost(session, { mediator, clock: new ManualClock(0), log: (line) => log.push(line) });
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
