import { describe, expect, it } from "vitest";
import { makeMediator, peek, TOOL_OPTIONS } from "../permission/mediator-harness.js";
import { type ChildRelayDeps, relayPermissionRequest } from "./child-relay.js";
import type { LiveSession } from "./live-session.js";
import type { SessionRegistry } from "./session-registry.js";

/** The relay over one live session `s1` (only what the relay reads of it), its requests named r1, r2, ... */
function relay() {
  const { mediator, clock } = makeMediator();
  const session = {
    sessionId: "s1",
    workspaceCwd: "/work/test-workspace",
    queue: { active: undefined },
    clients: { ids: () => ["client_a"] },
    touch: () => {},
  } as unknown as LiveSession;
  const registry = { get: (id: string) => (id === "s1" ? session : undefined) } as SessionRegistry;
  let n = 0;
  const deps: ChildRelayDeps = { registry, mediator, clock, log: () => {}, newId: () => `r${++n}` };
  const ask = () =>
    relayPermissionRequest(
      deps,
      { sessionId: "s1", toolCall: { toolCallId: `call-${n + 1}`, title: "Run ls" }, options: TOOL_OPTIONS },
      new AbortController().signal,
    );
  return { mediator, ask };
}

describe("relayPermissionRequest", () => {
  it("hands a vote's decision to the agent one turn of the event loop later, after the vote's answer", async () => {
    const { mediator, ask } = relay();
    const answered = ask();
    mediator.vote({
      sessionId: "s1",
      requestId: "r1",
      clientId: "client_a",
      outcome: { outcome: "selected", optionId: "allow" },
    });
    // The vote's HTTP answer is written within the promise steps that follow the vote: the agent waits.
    expect(await peek(answered)).toBe("pending");
    expect(await answered).toEqual({ outcome: { outcome: "selected", optionId: "allow" } });

    const declined = ask();
    mediator.vote({
      sessionId: "s1",
      requestId: "r2",
      clientId: "client_a",
      outcome: { outcome: "cancelled" },
    });
    expect(await peek(declined)).toBe("pending");
    expect(await declined).toEqual({ outcome: { outcome: "cancelled" } });
  });

  it("hands a cancel nobody voted for to the agent at once", async () => {
    const { mediator, ask } = relay();
    const withdrawn = ask();
    mediator.cancelRequest("s1", "r1", "agent_cancelled");
    expect(await peek(withdrawn)).toMatchObject({ outcome: { outcome: "cancelled" } });
  });
});
