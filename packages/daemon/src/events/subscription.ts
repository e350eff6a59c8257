import type { DaemonFrame } from "./daemon-event.js";
import { formatSseEvent } from "./sse-frame.js";

/** Why a subscription stopped receiving frames. */
export type SubscriptionCloseReason =
  /** The consumer closed it (SSE client went away, iterator `return()`). */
  | "unsubscribed"
  /** The session's bus was closed (session closed or died). */
  | "bus_closed"
  /** The consumer fell `maxQueued` live events behind and was evicted. */
  | "queue_overflow"
  /** A push-mode `onEvent` callback threw. */
  | "subscriber_error";

export type SubscriptionInit = {
  maxQueued: number;
  /**
   * Bound on the SSE text of the live events queued and unread (default: none). A consumer that does not
   * read is evicted once either bound is passed, so a few huge events cannot pin memory the ring let go.
   */
  maxQueuedBytes?: number | undefined;
  /** Push mode: frames go to this callback synchronously instead of the queue. */
  onEvent?: ((frame: DaemonFrame) => void) | undefined;
  onClose?: ((reason: SubscriptionCloseReason) => void) | undefined;
  /** Called once when the subscription ends, so the bus stops feeding it. */
  detach: (sub: Subscription) => void;
  reportError: (error: unknown, context: string) => void;
};

/** `size`: the frame's SSE text length, counted for live frames only. */
type Entry = { frame: DaemonFrame; live: boolean; size: number };
type Waiter = (result: IteratorResult<DaemonFrame, undefined>) => void;

const DONE: IteratorResult<DaemonFrame, undefined> = { done: true, value: undefined };

/**
 * One consumer's view of a session bus: a bounded FIFO read through `next()` / `for await`.
 *
 * Only live events count against `maxQueued`; replay, snapshot and control frames are forced in
 * regardless, because the consumer asked for them and dropping them would corrupt its state.
 * A consumer that lets `maxQueued` live events pile up is evicted: it gets a `client_evicted`
 * frame, then the iterator ends. Not safe for two concurrent readers of one subscription.
 */
export class Subscription implements AsyncIterableIterator<DaemonFrame, undefined> {
  readonly maxQueued: number;
  readonly #init: SubscriptionInit;
  // Read slots are cleared (undefined) so a consumed frame is not kept alive until compaction.
  #buffer: (Entry | undefined)[] = [];
  #head = 0;
  #live = 0;
  #liveBytes = 0;
  #waiters: Waiter[] = [];
  #closeReason: SubscriptionCloseReason | undefined;

  constructor(init: SubscriptionInit) {
    this.maxQueued = init.maxQueued;
    this.#init = init;
  }

  /** True once no further frames will be added (buffered frames may still be read). */
  get closed(): boolean {
    return this.#closeReason !== undefined;
  }

  get closeReason(): SubscriptionCloseReason | undefined {
    return this.#closeReason;
  }

  /** Frames buffered and not yet read. */
  get queued(): number {
    return this.#buffer.length - this.#head;
  }

  /** Live (non-forced) frames buffered; this is what `maxQueued` bounds. */
  get queuedLive(): number {
    return this.#live;
  }

  /** Bus side: add a live event. Returns false when the queue is full (caller evicts). */
  offer(frame: DaemonFrame): boolean {
    return this.#add(frame, true);
  }

  /** Bus side: add a frame that bypasses the bound (replay, snapshot, control). */
  force(frame: DaemonFrame): void {
    this.#add(frame, false);
  }

  /**
   * Bus side: stop the subscription. With `drain`, frames already buffered are still handed out
   * before the iterator ends (so an evicted or closed-bus consumer sees the final frames).
   */
  end(reason: SubscriptionCloseReason, drain: boolean): void {
    if (this.#closeReason !== undefined) return;
    this.#closeReason = reason;
    if (!drain) {
      this.#buffer = [];
      this.#head = 0;
      this.#live = 0;
      this.#liveBytes = 0;
    }
    for (const waiter of this.#waiters.splice(0)) waiter(DONE);
    this.#init.detach(this);
    this.#init.onClose?.(reason);
  }

  /** Consumer side: unsubscribe now, dropping anything still buffered. Idempotent. */
  close(): void {
    this.end("unsubscribed", false);
  }

  /** The next frame, waiting for one if the queue is empty; `done` once closed and drained. */
  next(): Promise<IteratorResult<DaemonFrame, undefined>> {
    const frame = this.tryNext();
    if (frame !== undefined) return Promise.resolve({ done: false, value: frame });
    if (this.closed) return Promise.resolve(DONE);
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** The next buffered frame without waiting, or undefined when none is buffered. */
  tryNext(): DaemonFrame | undefined {
    const entry = this.#buffer[this.#head];
    if (entry === undefined) return undefined;
    this.#buffer[this.#head] = undefined;
    this.#head += 1;
    if (entry.live) {
      this.#live -= 1;
      this.#liveBytes -= entry.size;
    }
    // Compact now and then instead of shifting per read: O(1) amortised.
    if (this.#head >= 1024 && this.#head * 2 >= this.#buffer.length) {
      this.#buffer = this.#buffer.slice(this.#head);
      this.#head = 0;
    }
    return entry.frame;
  }

  return(): Promise<IteratorResult<DaemonFrame, undefined>> {
    this.close();
    return Promise.resolve(DONE);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  #add(frame: DaemonFrame, live: boolean): boolean {
    if (this.#closeReason !== undefined) return true;
    const { onEvent } = this.#init;
    if (onEvent !== undefined) {
      try {
        onEvent(frame);
      } catch (error) {
        this.#init.reportError(error, "event subscriber callback threw; subscriber closed");
        this.end("subscriber_error", false);
      }
      return true;
    }
    const waiter = this.#waiters.shift();
    if (waiter !== undefined) {
      waiter({ done: false, value: frame });
      return true;
    }
    if (!live) {
      this.#buffer.push({ frame, live, size: 0 });
      return true;
    }
    if (this.#live >= this.maxQueued) return false;
    const size = formatSseEvent(frame).length; // cached: the bus formatted it on publish
    const maxBytes = this.#init.maxQueuedBytes;
    if (maxBytes !== undefined && this.#live > 0 && this.#liveBytes + size > maxBytes) return false;
    this.#buffer.push({ frame, live, size });
    this.#live += 1;
    this.#liveBytes += size;
    return true;
  }
}
