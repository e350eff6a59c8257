import { describe, expect, it } from "vitest";
import { needsPerson, relativeTime, sessionBadges, sessionTitle } from "./session-list.js";

describe("session list", () => {
  it("titles a session by its display name, shortened, else by its id", () => {
    expect(sessionTitle({ sessionId: "abcdef0123456789", displayName: "  Plan my week " })).toBe(
      "Plan my week",
    );
    expect(sessionTitle({ sessionId: "abcdef0123456789" })).toBe("Session abcdef01");
    expect(sessionTitle({ sessionId: "s", displayName: "x".repeat(100) })).toHaveLength(80);
  });

  it("says in words what a live session needs: a question before an approval, then work and failures", () => {
    expect(
      sessionBadges({
        sessionId: "s",
        live: true,
        isWaitingForUserQuestion: true,
        isWaitingForPermission: true,
      }),
    ).toEqual([{ icon: "question", text: "Needs your answer", tone: "ask" }]);
    expect(
      sessionBadges({
        sessionId: "s",
        live: true,
        isWaitingForPermission: true,
        hasActivePrompt: true,
        hasTurnError: true,
      }).map((b) => [b.text, b.tone]),
    ).toEqual([
      ["Needs your approval", "ask"],
      ["Working", "busy"],
      ["Last turn failed", "error"],
    ]);
    expect(sessionBadges({ sessionId: "s", live: true })).toEqual([]);
  });

  it("marks a session on disk that holds an unanswered question or approval (pendingOnDisk)", () => {
    expect(sessionBadges({ sessionId: "s", live: false, pendingOnDisk: ["exec", "user_question"] })).toEqual([
      { icon: "question", text: "Waiting for you: a question", tone: "ask" },
    ]);
    const approval = (...kinds: ("exec" | "edit" | "mcp")[]) =>
      sessionBadges({ sessionId: "s", live: false, pendingOnDisk: kinds })[0];
    expect(approval("edit")).toEqual({ icon: "approval", text: "Waiting for you: a file edit", tone: "ask" });
    expect(approval("edit", "edit")?.text).toBe("Waiting for you: file edits");
    expect(approval("exec")?.text).toBe("Waiting for you: run a command?");
    expect(approval("mcp")?.text).toBe("Waiting for you: a tool call");
    expect(approval("exec", "edit")?.text).toBe("Waiting for you: approvals");
    expect(needsPerson({ sessionId: "s", live: false, pendingOnDisk: ["edit"] })).toBe(true);
    // A live session's own state wins over what its file held.
    expect(sessionBadges({ sessionId: "s", live: true, pendingOnDisk: ["edit"] })).toEqual([]);
  });

  it("falls back to what this browser remembers only when the daemon does not say", () => {
    expect(sessionBadges({ sessionId: "s", live: false }, true)[0]).toEqual({
      icon: "question",
      text: "Was waiting for you: open to check",
      tone: "ask",
    });
    expect(sessionBadges({ sessionId: "s", live: false, pendingOnDisk: [] }, true)).toEqual([]);
    expect(sessionBadges({ sessionId: "s", live: true }, true)).toEqual([]);
  });

  it("says how long ago, from an injected clock", () => {
    const now = Date.parse("2026-01-10T12:00:00Z");
    expect(relativeTime("2026-01-10T11:59:30Z", now)).toBe("just now");
    expect(relativeTime("2026-01-10T11:55:00Z", now)).toBe("5 min ago");
    expect(relativeTime("2026-01-10T09:00:00Z", now)).toBe("3 h ago");
    expect(relativeTime("2026-01-01T09:00:00Z", now)).toBe("2026-01-01");
    expect(relativeTime(undefined, now)).toBe("");
    expect(relativeTime("not a date", now)).toBe("");
  });
});
