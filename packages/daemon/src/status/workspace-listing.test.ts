import type { SessionSummary } from "@qwen-daemon/core/protocol";
import { describe, expect, it } from "vitest";
import { persistedSessionSummary } from "./session-summary.js";
import { decodeCursor, encodeCursor, mergeSessionSummaries, paginate } from "./workspace-listing.js";

const disk = (id: string, updatedAt: string): SessionSummary =>
  persistedSessionSummary({ sessionId: id, createdAt: updatedAt, updatedAt }, "/w");

describe("workspace listing", () => {
  it("live state replaces the persisted entry of the same id; newest first", () => {
    const live = {
      ...disk("b", "2025-01-01T00:00:00Z"),
      live: true,
      clientCount: 2,
      updatedAt: "2025-03-01T00:00:00Z",
    };
    const merged = mergeSessionSummaries(
      [live],
      [disk("a", "2025-02-01T00:00:00Z"), disk("b", "2025-01-01T00:00:00Z")],
    );
    expect(merged.map((s) => [s.sessionId, s.clientCount])).toEqual([
      ["b", 2],
      ["a", 0],
    ]);
  });

  it("cursors round-trip and foreign ones are rejected", () => {
    expect(decodeCursor(encodeCursor(42))).toBe(42);
    expect(decodeCursor("not-a-cursor")).toBeUndefined();
    expect(decodeCursor(Buffer.from("o:-1").toString("base64url"))).toBeUndefined();
  });

  it("pages until the end without a trailing cursor", () => {
    const all = ["a", "b", "c"].map((id, i) => disk(id, `2025-01-0${3 - i}T00:00:00Z`));
    const first = paginate(all, 2, 0);
    expect(first.sessions.map((s) => s.sessionId)).toEqual(["a", "b"]);
    const second = paginate(all, 2, decodeCursor(first.nextCursor as string) as number);
    expect(second).toEqual({ sessions: [all[2]] });
  });
});
