import { describe, expect, it } from "vitest";
import type { DaemonEvent } from "../events/daemon-event.js";
import { reopenReplayedCalls } from "./replay-reopen.js";

const event = (id: number, update: Record<string, unknown>): DaemonEvent => ({
  id,
  v: 1,
  type: "session_update",
  data: { sessionId: "s1", update },
  _meta: { serverTimestamp: id },
});
const call = (id: number, toolCallId: string) =>
  event(id, { sessionUpdate: "tool_call", toolCallId, status: "in_progress" });
const failed = (id: number, toolCallId: string) =>
  event(id, { sessionUpdate: "tool_call_update", toolCallId, status: "failed", content: [] });

describe("reopenReplayedCalls", () => {
  it("turns the failure that closed a re-asked call into in_progress, keeping ids", () => {
    const replay = [
      event(1, { sessionUpdate: "user_message_chunk", content: { type: "text", text: "hi" } }),
      call(2, "q1"),
      call(3, "other"),
      failed(4, "q1"),
      failed(5, "other"),
    ];
    const reopened = reopenReplayedCalls(replay, new Set(["q1"]));
    expect(reopened.map((e) => e.id)).toEqual([1, 2, 3, 4, 5]);
    expect(reopened[3]).toEqual({
      ...replay[3],
      data: {
        sessionId: "s1",
        update: { sessionUpdate: "tool_call_update", toolCallId: "q1", status: "in_progress" },
      },
    });
    // Calls that are not re-asked keep their failure; the input is not mutated.
    expect(reopened[4]).toBe(replay[4]);
    expect(replay[3]?.data.update).toMatchObject({ status: "failed" });
  });

  it("leaves a failure of an earlier call with the same id alone, and returns the same array when nothing applies", () => {
    const replay = [call(1, "q1"), failed(2, "q1"), call(3, "q1")];
    expect(reopenReplayedCalls(replay, new Set(["q1"]))).toBe(replay);
    expect(reopenReplayedCalls(replay, new Set(["nope"]))).toBe(replay);
  });
});
