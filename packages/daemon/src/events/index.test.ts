import { describe, expect, it } from "vitest";
import * as events from "./index.js";

describe("events public API", () => {
  it("exports exactly these runtime names", () => {
    expect(Object.keys(events).sort()).toEqual([
      "DEFAULT_HEARTBEAT_MS",
      "DEFAULT_MAX_QUEUED",
      "DEFAULT_MAX_SUBSCRIBERS",
      "DEFAULT_RING_SIZE",
      "DaemonEventType",
      "EVENT_SCHEMA_VERSION",
      "MAX_MAX_QUEUED",
      "MIN_MAX_QUEUED",
      "ManualClock",
      "RingBuffer",
      "SSE_HEARTBEAT_FRAME",
      "SSE_RETRY_PREAMBLE",
      "STREAM_CONTROL_EVENT_TYPES",
      "SessionEventBus",
      "SubscriberLimitExceededError",
      "Subscription",
      "controlFrame",
      "formatSseEvent",
      "isDaemonEventType",
      "isValidMaxQueued",
      "streamEvents",
      "systemClock",
    ]);
  });

  it("the registry names every event type of docs/protocol.md", () => {
    const protocol = [
      "session_update",
      "permission_request",
      "permission_resolved",
      "permission_already_resolved",
      "permission_partial_vote",
      "permission_forbidden",
      "turn_complete",
      "turn_error",
      "prompt_cancelled",
      "pending_prompt_added",
      "pending_prompt_started",
      "pending_prompt_completed",
      "session_closed",
      "session_died",
      "replay_complete",
      "state_resync_required",
    ];
    for (const type of protocol) expect(events.isDaemonEventType(type)).toBe(true);
    expect(events.isDaemonEventType("client_evicted")).toBe(true);
    expect(events.isDaemonEventType("nonsense")).toBe(false);
    expect(events.isValidMaxQueued(16) && events.isValidMaxQueued(2048)).toBe(true);
    expect(
      events.isValidMaxQueued(15) || events.isValidMaxQueued(2049) || events.isValidMaxQueued(100.5),
    ).toBe(false);
  });
});
