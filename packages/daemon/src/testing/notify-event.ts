// A waiting-question notification for the notify tests.
import type { NotifyEvent } from "../notify/notify-event.js";

export function sampleNotifyEvent(overrides: Partial<NotifyEvent> = {}): NotifyEvent {
  return {
    v: 1,
    id: "s1:call_1",
    type: "question_waiting",
    title: "Which colour?",
    sessionId: "s1",
    workspace: "/ws",
    url: "http://127.0.0.1:4170/#session=s1",
    at: "2026-01-01T00:00:00.000Z",
    restored: false,
    ...overrides,
  };
}
