export {
  DaemonEventType,
  EVENT_SCHEMA_VERSION,
  isDaemonEventType,
  STREAM_CONTROL_EVENT_TYPES,
} from "@qwen-daemon/core/protocol";
export type { Clock, TimerHandle } from "./clock.js";
export { systemClock } from "./clock.js";
export type {
  ControlFrame,
  DaemonEvent,
  DaemonEventExtra,
  DaemonEventLike,
  DaemonFrame,
} from "./daemon-event.js";
export { controlFrame } from "./daemon-event.js";
export type { SessionEventBusOptions, SubscribeOptions } from "./event-bus.js";
export {
  DEFAULT_MAX_QUEUED,
  DEFAULT_MAX_SUBSCRIBERS,
  DEFAULT_RING_SIZE,
  isValidMaxQueued,
  MAX_MAX_QUEUED,
  MIN_MAX_QUEUED,
  SessionEventBus,
  SubscriberLimitExceededError,
} from "./event-bus.js";
export { ManualClock } from "./manual-clock.js";
export { RingBuffer } from "./ring-buffer.js";
export type { SseStreamCloseReason, StreamEventsOptions } from "./sse.js";
export {
  DEFAULT_HEARTBEAT_MS,
  formatSseEvent,
  SSE_HEARTBEAT_FRAME,
  SSE_RETRY_PREAMBLE,
  streamEvents,
} from "./sse.js";
export type { SubscriptionCloseReason } from "./subscription.js";
export { Subscription } from "./subscription.js";
