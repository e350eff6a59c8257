import { describe, expect, it } from "vitest";
import { isEnded, isIdle, nextState, type SessionState, type SessionTransition } from "./session-state.js";

const states: SessionState[] = ["opening", "live", "closing", "closed"];
const transitions: SessionTransition[] = ["opened", "close", "closed"];

describe("nextState", () => {
  it("goes opening → live → closing → closed, and straight to closed from opening or live", () => {
    expect(nextState("opening", "opened")).toBe("live");
    expect(nextState("live", "close")).toBe("closing");
    expect(nextState("closing", "closed")).toBe("closed");
    expect(nextState("opening", "closed")).toBe("closed");
    expect(nextState("live", "closed")).toBe("closed");
  });

  it("throws on every other move (a session never reopens, nor closes twice)", () => {
    const allowed = new Set([
      "opening:opened",
      "live:close",
      "closing:closed",
      "opening:closed",
      "live:closed",
    ]);
    for (const state of states) {
      for (const transition of transitions) {
        if (allowed.has(`${state}:${transition}`)) continue;
        expect(() => nextState(state, transition), `${state} ${transition}`).toThrow(/cannot go/);
      }
    }
  });
});

describe("isEnded / isIdle", () => {
  it("a session has ended for its clients once closing", () => {
    expect(states.filter(isEnded)).toEqual(["closing", "closed"]);
  });

  it("is idle with no prompt running and none queued", () => {
    expect(isIdle({ promptActive: false, pendingPromptCount: 0 })).toBe(true);
    expect(isIdle({ promptActive: true, pendingPromptCount: 0 })).toBe(false);
    expect(isIdle({ promptActive: false, pendingPromptCount: 2 })).toBe(false);
  });
});
