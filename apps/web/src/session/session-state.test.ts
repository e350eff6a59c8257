import { describe, expect, it } from "vitest";
import { sessionState, stateTone, stateWords } from "./session-state.js";

describe("sessionState", () => {
  it("says one thing: waiting on the person wins over working, the daemon away over everything", () => {
    const words = (facts: Parameters<typeof sessionState>[0]) => stateWords(sessionState(facts));
    expect(words({ busy: true, waitingOn: "question" })).toBe("Waiting for you: question");
    expect(words({ busy: true, waitingOn: "approval" })).toBe("Waiting for you: approval");
    expect(words({ busy: true })).toBe("Working");
    expect(words({ busy: false })).toBe("Idle");
    expect(words({ busy: true, waitingOn: "question", stopped: true })).toBe("Stopped");
    expect(words({ busy: true, stopped: true, away: true })).toBe("Daemon away");
    expect(words({ busy: false, connecting: true })).toBe("Connecting…");
  });

  it("colours waiting as asking and the daemon away as bad", () => {
    expect(stateTone(sessionState({ busy: false, waitingOn: "question" }))).toBe("ask");
    expect(stateTone(sessionState({ busy: false, away: true }))).toBe("bad");
    expect(stateTone(sessionState({ busy: true }))).toBe("busy");
  });
});
