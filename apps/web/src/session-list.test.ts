import { describe, expect, it } from "vitest";
import { relativeTime, sessionBadges, sessionTitle } from "./session-list.js";

describe("session list", () => {
  it("titles a session by its display name, shortened, else by its id", () => {
    expect(sessionTitle({ sessionId: "abcdef0123456789", displayName: "  Plan my week " })).toBe(
      "Plan my week",
    );
    expect(sessionTitle({ sessionId: "abcdef0123456789" })).toBe("Session abcdef01");
    expect(sessionTitle({ sessionId: "s", displayName: "x".repeat(100) })).toHaveLength(80);
  });

  it("badges a waiting question with ❓ (before a plain approval), work in progress and a failed turn", () => {
    expect(
      sessionBadges({ sessionId: "s", isWaitingForUserQuestion: true, isWaitingForPermission: true }),
    ).toEqual([{ icon: "❓", text: "waiting for your answer", tone: "ask" }]);
    expect(
      sessionBadges({
        sessionId: "s",
        isWaitingForPermission: true,
        hasActivePrompt: true,
        hasTurnError: true,
      }).map((b) => b.icon),
    ).toEqual(["✋", "⏳", "⚠️"]);
    expect(sessionBadges({ sessionId: "s" })).toEqual([]);
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
