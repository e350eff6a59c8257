import { randomUUID } from "node:crypto";
import {
  type DaemonEventData,
  DaemonEventType,
  EVENT_SCHEMA_VERSION,
  eventDefinition,
} from "@qwen-daemon/core/protocol";
import type { BufferBudget, ReplayEntry, ReplayHolder } from "../budget/buffer-budget.js";
import type { Clock } from "./clock.js";
import { systemClock } from "./clock.js";
import {
  type ControlFrame,
  controlFrame,
  type DaemonEvent,
  type DaemonEventExtra,
  type DaemonEventLike,
  type DaemonFrame,
} from "./daemon-event.js";
import { RingBuffer } from "./ring-buffer.js";
import { formatSseEvent } from "./sse-frame.js";
import { Subscription, type SubscriptionCloseReason } from "./subscription.js";

export const DEFAULT_RING_SIZE = 8000;
/** Bytes (of SSE frame text) a session's ring may hold: 8000 small events fit many times over. */
export const DEFAULT_RING_MAX_BYTES = 16 * 1024 * 1024;
export const DEFAULT_MAX_QUEUED = 256;
export const MIN_MAX_QUEUED = 16;
export const MAX_MAX_QUEUED = 2048;
export const DEFAULT_MAX_SUBSCRIBERS = 64;

/** True for the `?maxQueued=` values docs/protocol.md "Events" accepts (integers 16..2048). */
export function isValidMaxQueued(value: number): boolean {
  return Number.isInteger(value) && value >= MIN_MAX_QUEUED && value <= MAX_MAX_QUEUED;
}

/** Thrown by `subscribe` at the subscriber cap; the route answers 429 `subscriber_limit_exceeded`. */
export class SubscriberLimitExceededError extends Error {
  readonly limit: number;
  constructor(limit: number) {
    super(`Too many event subscribers for this session (limit ${limit})`);
    this.name = "SubscriberLimitExceededError";
    this.limit = limit;
  }
}

export type SessionEventBusOptions = {
  ringSize?: number;
  /**
   * Bound on the SSE text of the events the ring keeps, besides their count: a few huge events (a tool call
   * writing a big file) must not pin hundreds of megabytes. The newest event is always kept.
   */
  ringMaxBytes?: number;
  /**
   * The daemon's one budget for what it buffers across all sessions: this ring's events count against it as
   * replay data, and go (oldest of the daemon first) when it is over, even under this ring's own caps.
   */
  budget?: BufferBudget;
  /** Identity of this id sequence (header `X-Qwen-Event-Epoch`); new per bus unless given. */
  epoch?: string;
  clock?: Pick<Clock, "now">;
  maxSubscribers?: number;
  /** Where failures of push-mode subscriber callbacks go; default: console.error. */
  reportError?: (error: unknown, context: string) => void;
  /** Sees every published event after its subscribers (the notifier). A throw is reported, never passed on. */
  observe?: (event: DaemonEvent) => void;
  /**
   * Check the data of every `emit` against its event's schema in the contract, and throw on a mismatch
   * (tests; production trusts the types, and skips the cost on every event).
   */
  checkEvents?: boolean;
};

export type SubscribeOptions = {
  /** Last id the client has (SSE `Last-Event-ID`): replays the ring after it. */
  lastEventId?: number;
  /** Epoch the cursor belongs to, when the client sent one; a mismatch forces a resync. */
  epoch?: string;
  maxQueued?: number;
  /** Delivered first, without ids, when there is no cursor (the pending permission requests). */
  initial?: readonly DaemonEventLike[];
  /** Push mode: frames are handed to this callback synchronously (including during subscribe). */
  onEvent?: (frame: DaemonFrame) => void;
  onClose?: (reason: SubscriptionCloseReason) => void;
};

/** An event in the ring, with its SSE text length and its place in the daemon's budget. */
type Stored = { event: DaemonEvent; size: number; entry: ReplayEntry | undefined };

/**
 * The event stream of one session: assigns ids 1, 2, ... (per bus), keeps the last `ringSize`
 * events for `Last-Event-ID` replay and fans each event out to bounded subscriber queues.
 */
export class SessionEventBus {
  readonly epoch: string;
  readonly ringSize: number;
  readonly ringMaxBytes: number;
  readonly maxSubscribers: number;
  readonly #clock: Pick<Clock, "now">;
  readonly #reportError: (error: unknown, context: string) => void;
  readonly #observe: ((event: DaemonEvent) => void) | undefined;
  readonly #checkEvents: boolean;
  readonly #ring: RingBuffer<Stored>;
  readonly #budget: BufferBudget | undefined;
  /** What the budget calls to take this ring's oldest event when the daemon is over budget. */
  readonly #holder: ReplayHolder = { evictOldest: () => this.#dropOldest() };
  readonly #subscribers = new Set<Subscription>();
  #nextId = 1;
  #closed = false;
  #ringBytes = 0;

  constructor(options: SessionEventBusOptions = {}) {
    this.ringSize = options.ringSize ?? DEFAULT_RING_SIZE;
    this.ringMaxBytes = options.ringMaxBytes ?? DEFAULT_RING_MAX_BYTES;
    this.epoch = options.epoch ?? randomUUID();
    this.maxSubscribers = options.maxSubscribers ?? DEFAULT_MAX_SUBSCRIBERS;
    this.#clock = options.clock ?? systemClock;
    this.#observe = options.observe;
    this.#reportError =
      options.reportError ?? ((error, context) => console.error(`event bus: ${context}`, error));
    this.#checkEvents = options.checkEvents === true;
    this.#ring = new RingBuffer(this.ringSize);
    this.#budget = options.budget;
  }

  /** The id of the last event published (or skipped over by `advanceTo`); 0 before any. */
  get lastEventId(): number {
    return this.#nextId - 1;
  }

  /** Oldest id a cursor can resume from without a resync (`Last-Event-ID` >= this - 1). */
  get earliestAvailableId(): number {
    return this.#ring.first()?.event.id ?? this.#nextId;
  }

  /** Size of the SSE text of the events in the ring. */
  get ringBytes(): number {
    return this.#ringBytes;
  }

  get subscriberCount(): number {
    return this.#subscribers.size;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Publishes one of the daemon's events (protocol/events.ts): its data is typed by the event's definition,
   * and checked against its schema when the bus was made with `checkEvents`. Every event the daemon's
   * sessions carry is built through here; `publish` is the untyped mechanism underneath.
   */
  emit<T extends DaemonEventType>(
    type: T,
    data: DaemonEventData<T>,
    extra: DaemonEventExtra = {},
  ): DaemonEvent {
    if (this.#checkEvents) {
      const checked = eventDefinition(type)?.schema.safeParse(data);
      if (checked?.success !== true) {
        throw new TypeError(
          `${type} event does not match the contract: ${checked?.error.message ?? "unknown type"}`,
        );
      }
    }
    return this.publish(type, data as Record<string, unknown>, extra);
  }

  /**
   * Stamps, stores and fans out one event. Never blocks on subscribers: one that is `maxQueued`
   * live events behind is evicted instead. Publishing on a closed bus still assigns an id (no
   * subscriber can hear it), so producers racing a session close need no special case.
   * Throws TypeError if `data` is not JSON-serialisable, before the event takes an id.
   */
  publish(type: string, data: Record<string, unknown>, extra: DaemonEventExtra = {}): DaemonEvent {
    const event: DaemonEvent = {
      id: this.#nextId,
      v: EVENT_SCHEMA_VERSION,
      type,
      data,
      ...(extra.promptId !== undefined ? { promptId: extra.promptId } : {}),
      ...(extra.originatorClientId !== undefined ? { originatorClientId: extra.originatorClientId } : {}),
      _meta: { serverTimestamp: this.#clock.now() },
    };
    // Serialising up front keeps a bad event out of the ring (where it would break every
    // replay) and pre-fills the SSE text cache shared by all subscribers.
    const size = formatSseEvent(event).length;
    this.#nextId += 1;
    this.#store(event, size);
    for (const sub of [...this.#subscribers]) {
      if (!sub.offer(event)) this.#evict(sub, event);
    }
    if (this.#observe) {
      try {
        this.#observe(event);
      } catch (error) {
        this.#reportError(error, `observer of ${type}`);
      }
    }
    return event;
  }

  /**
   * Declares that ids up to `lastId` are taken by history delivered elsewhere (a /load's
   * `compactedReplay` of `lastId` items), so the next live event is `lastId + 1`. Never moves
   * backwards. When it skips ids the ring is cleared: its events sit before a gap no replay
   * can fill, so a cursor there must resync anyway.
   */
  advanceTo(lastId: number): void {
    if (!Number.isInteger(lastId) || lastId < 0) {
      throw new RangeError(`event id must be a non-negative integer, got ${lastId}`);
    }
    if (lastId <= this.lastEventId) return;
    this.#nextId = lastId + 1;
    this.#clearRing();
  }

  /** Same as `advanceTo(nextId - 1)`. */
  setNextId(nextId: number): void {
    this.advanceTo(nextId - 1);
  }

  /** Ring events with an id greater than `afterId`, oldest first. */
  eventsAfter(afterId: number): DaemonEvent[] {
    const first = this.#ring.first();
    if (first === undefined) return [];
    const out: DaemonEvent[] = [];
    for (let i = Math.max(0, afterId + 1 - first.event.id); i < this.#ring.size; i += 1) {
      out.push((this.#ring.at(i) as Stored).event);
    }
    return out;
  }

  /**
   * Attaches a consumer synchronously: it hears every event published after this call returns.
   * With `lastEventId` it first gets the ring after that id and a `replay_complete` marker,
   * preceded by `state_resync_required` when the ring cannot cover the cursor; without one it
   * first gets `initial` (as id-less frames).
   * Throws SubscriberLimitExceededError at the cap and RangeError for a bad maxQueued/cursor.
   */
  subscribe(options: SubscribeOptions = {}): Subscription {
    const maxQueued = options.maxQueued ?? DEFAULT_MAX_QUEUED;
    if (!isValidMaxQueued(maxQueued)) {
      throw new RangeError(
        `maxQueued must be an integer in ${MIN_MAX_QUEUED}..${MAX_MAX_QUEUED}, got ${maxQueued}`,
      );
    }
    const cursor = options.lastEventId;
    if (cursor !== undefined && (!Number.isInteger(cursor) || cursor < 0)) {
      throw new RangeError(`lastEventId must be a non-negative integer, got ${cursor}`);
    }
    if (!this.#closed && this.#subscribers.size >= this.maxSubscribers) {
      throw new SubscriberLimitExceededError(this.maxSubscribers);
    }
    const sub = new Subscription({
      maxQueued,
      // A consumer may hold unread no more than the ring itself keeps, nor than the daemon's whole budget.
      maxQueuedBytes: Math.min(this.ringMaxBytes, this.#budget?.capacity ?? Number.POSITIVE_INFINITY),
      onEvent: options.onEvent,
      onClose: options.onClose,
      detach: (s) => this.#subscribers.delete(s),
      reportError: this.#reportError,
    });
    if (this.#closed) {
      sub.end("bus_closed", false);
      return sub;
    }
    this.#subscribers.add(sub);
    if (cursor === undefined) {
      for (const like of options.initial ?? []) sub.force(controlFrame(like, this.#clock.now()));
    } else {
      this.#replay(sub, cursor, options.epoch);
    }
    return sub;
  }

  /** Ends every subscription (after they drain what they have) and refuses new ones. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const sub of [...this.#subscribers]) sub.end("bus_closed", true);
    // No one can replay from a closed bus: its events leave the ring and the daemon's budget now (a closed
    // session may stay referenced a while, and its ring must not count, or stay, until then).
    this.#clearRing();
  }

  #store(event: DaemonEvent, size: number): void {
    if (this.#closed) return;
    const stored: Stored = { event, size, entry: undefined };
    const dropped = this.#ring.push(stored);
    this.#ringBytes += size;
    if (dropped !== undefined) this.#release(dropped);
    while (this.#ringBytes > this.ringMaxBytes && this.#ring.size > 1) this.#dropOldest();
    // Last, so the budget's eviction (which may take this ring's older events) never takes this one.
    stored.entry = this.#budget?.addReplay(this.#holder, size);
  }

  #dropOldest(): void {
    const oldest = this.#ring.shift();
    if (oldest !== undefined) this.#release(oldest);
  }

  #release(stored: Stored): void {
    this.#ringBytes -= stored.size;
    if (stored.entry !== undefined) this.#budget?.release(stored.entry);
  }

  #clearRing(): void {
    for (const stored of this.#ring) if (stored.entry !== undefined) this.#budget?.release(stored.entry);
    this.#ring.clear();
    this.#ringBytes = 0;
  }

  #replay(sub: Subscription, cursor: number, epoch: string | undefined): void {
    const earliest = this.earliestAvailableId;
    let replayAfter = cursor;
    if ((epoch !== undefined && epoch !== this.epoch) || cursor > this.lastEventId) {
      // The cursor belongs to another id sequence (an earlier daemon or bus): nothing in it
      // lines up with ours, so the client must reload; what we hold is still sent.
      sub.force(
        this.#control(DaemonEventType.stateResyncRequired, this.#resyncData("epoch_reset", cursor, earliest)),
      );
      replayAfter = earliest - 1;
    } else if (cursor + 1 < earliest) {
      sub.force(
        this.#control(
          DaemonEventType.stateResyncRequired,
          this.#resyncData("ring_evicted", cursor, earliest),
        ),
      );
      replayAfter = earliest - 1;
    }
    let replayedCount = 0;
    let lastReplayed: number | undefined;
    for (const event of this.eventsAfter(replayAfter)) {
      sub.force(event);
      replayedCount += 1;
      lastReplayed = event.id;
    }
    sub.force(
      this.#control(DaemonEventType.replayComplete, {
        replayedCount,
        // Both names, like the reference daemon: `lastEventId` is the older alias.
        ...(lastReplayed !== undefined
          ? { lastReplayedEventId: lastReplayed, lastEventId: lastReplayed }
          : {}),
      }),
    );
  }

  #resyncData(
    reason: string,
    cursor: number,
    earliest: number,
  ): DaemonEventData<typeof DaemonEventType.stateResyncRequired> {
    return { reason, lastDeliveredId: cursor, earliestAvailableId: earliest };
  }

  #evict(sub: Subscription, trigger: DaemonEvent): void {
    sub.force(
      this.#control(DaemonEventType.clientEvicted, {
        reason: "queue_overflow",
        // Reference field names: the first event this subscriber did not get is `droppedAfter`.
        droppedAfter: trigger.id,
        queueSize: sub.queuedLive,
        maxQueued: sub.maxQueued,
      }),
    );
    sub.end("queue_overflow", true);
  }

  #control<T extends DaemonEventType>(type: T, data: DaemonEventData<T>): ControlFrame {
    return controlFrame({ type, data: data as Record<string, unknown> }, this.#clock.now());
  }
}
