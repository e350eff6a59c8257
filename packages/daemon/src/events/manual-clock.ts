import type { Clock, TimerHandle } from "./clock.js";

type Scheduled = { id: number; at: number; fn: () => void };

/**
 * A deterministic {@link Clock} for tests and benchmarks: time only moves when `advance` is
 * called, and due timers fire in order of their deadline (then of scheduling).
 */
export class ManualClock implements Clock {
  #now: number;
  #nextId = 1;
  #timers: Scheduled[] = [];

  constructor(start = 0) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const timer = { id: this.#nextId++, at: this.#now + Math.max(0, ms), fn };
    this.#timers.push(timer);
    return timer.id;
  }

  clearTimeout(handle: TimerHandle): void {
    this.#timers = this.#timers.filter((t) => t.id !== handle);
  }

  /** Number of timers still scheduled (lets tests prove cleanup happened). */
  get pendingTimers(): number {
    return this.#timers.length;
  }

  /** Moves time forward by `ms`, firing every timer that falls due, including ones they schedule. */
  advance(ms: number): void {
    const target = this.#now + ms;
    for (;;) {
      const due = this.#timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (due === undefined) break;
      this.#timers = this.#timers.filter((t) => t !== due);
      this.#now = due.at;
      due.fn();
    }
    this.#now = target;
  }
}
