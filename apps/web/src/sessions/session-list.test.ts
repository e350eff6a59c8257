import { describe, expect, it } from "vitest";
import {
  matchesFilter,
  needsPerson,
  relativeTime,
  sessionBadges,
  sessionTitle,
  summaryTitle,
  TITLE_CHARS,
} from "./session-list.js";

describe("session list", () => {
  it("titles a session by a short summary of its name, cut at a word, else as untitled", () => {
    expect(sessionTitle({ sessionId: "abcdef0123456789", displayName: "  Plan my week " })).toBe(
      "Plan my week",
    );
    expect(sessionTitle({ sessionId: "abcdef0123456789" })).toBe("Untitled session");
    expect(
      sessionTitle({
        sessionId: "s",
        displayName: "Add a section about installing on Linux and macOS to the README, with examples",
      }),
    ).toBe("Add a section about installing on Linux and…");
    expect(summaryTitle("Fix the build. Then run the tests and tell me what failed in detail")).toBe(
      "Fix the build.",
    );
    expect(summaryTitle("x".repeat(100))).toHaveLength(TITLE_CHARS);
    expect(summaryTitle("first line\nsecond line")).toBe("first line");
  });

  it("says a live session's state in the header's words: a question before an approval, no Working while waiting", () => {
    expect(
      sessionBadges({
        sessionId: "s",
        live: true,
        isWaitingForUserQuestion: true,
        isWaitingForPermission: true,
        hasActivePrompt: true,
      }),
    ).toEqual([{ icon: "question", text: "Waiting for you: question", tone: "ask", state: true }]);
    expect(
      sessionBadges({
        sessionId: "s",
        live: true,
        isWaitingForPermission: true,
        hasActivePrompt: true,
        hasTurnError: true,
      }).map((b) => [b.text, b.tone]),
    ).toEqual([
      ["Waiting for you: approval", "ask"],
      ["Last turn went wrong", "error"],
    ]);
    expect(sessionBadges({ sessionId: "s", live: true, hasActivePrompt: true })[0]?.text).toBe("Working");
    expect(sessionBadges({ sessionId: "s", live: true })).toEqual([]);
  });

  it("marks a session on disk that holds an unanswered question or approval (pendingOnDisk) in the same words", () => {
    expect(sessionBadges({ sessionId: "s", live: false, pendingOnDisk: ["exec", "user_question"] })).toEqual([
      { icon: "question", text: "Waiting for you: question", tone: "ask", state: true },
    ]);
    const approval = (...kinds: ("exec" | "edit" | "mcp")[]) =>
      sessionBadges({ sessionId: "s", live: false, pendingOnDisk: kinds })[0];
    expect(approval("edit")).toEqual({
      icon: "approval",
      text: "Waiting for you: approval",
      tone: "ask",
      state: true,
      detail: "a file edit",
    });
    expect(approval("edit", "edit")?.detail).toBe("file edits");
    expect(approval("exec")?.detail).toBe("to run a command");
    expect(approval("mcp")?.detail).toBe("a tool call");
    expect(approval("exec", "edit")?.detail).toBe("approvals");
    expect(needsPerson({ sessionId: "s", live: false, pendingOnDisk: ["edit"] })).toBe(true);
    // A live session's own state wins over what its file held.
    expect(sessionBadges({ sessionId: "s", live: true, pendingOnDisk: ["edit"] })).toEqual([]);
  });

  it("falls back to what this browser remembers only when the daemon does not say", () => {
    expect(sessionBadges({ sessionId: "s", live: false }, true)[0]).toEqual({
      icon: "question",
      text: "Was waiting for you: open to check",
      tone: "ask",
      state: true,
    });
    expect(sessionBadges({ sessionId: "s", live: false, pendingOnDisk: [] }, true)).toEqual([]);
    expect(sessionBadges({ sessionId: "s", live: true }, true)).toEqual([]);
  });

  it("filters by the words of a title, in any order and case", () => {
    const s = { sessionId: "s", displayName: "Install docs for Linux" };
    expect(matchesFilter(s, "linux INSTALL")).toBe(true);
    expect(matchesFilter(s, "windows")).toBe(false);
    expect(matchesFilter(s, "  ")).toBe(true);
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
