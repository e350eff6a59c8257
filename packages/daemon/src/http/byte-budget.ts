// A budget of bytes shared by the request bodies being received and handled at once. A request takes its
// share before its body is read and gives it back once its handler is done; one that does not fit waits,
// first come first served, without reading its body (TCP holds the rest back), so a burst of large uploads
// is handled a few at a time instead of being held in memory all together. Pure: no I/O, no timers.

export type BudgetSnapshot = { capacity: number; inFlight: number; waiting: number; peak: number };

type Waiter = { bytes: number; grant: (release: () => void) => void };

/** What `acquire` rejects with when its signal aborts before the bytes were granted. */
export class BudgetWaitAborted extends Error {
  override readonly name = "BudgetWaitAborted";
}

export class ByteBudget {
  readonly capacity: number;
  #inFlight = 0;
  #peak = 0;
  readonly #waiting: Waiter[] = [];

  constructor(capacity: number) {
    if (!Number.isSafeInteger(capacity) || capacity <= 0) {
      throw new RangeError(`byte budget must be a positive integer, got ${capacity}`);
    }
    this.capacity = capacity;
  }

  /**
   * Resolves with the release of `bytes` of the budget (more than the capacity is taken as all of it) once they
   * fit. `signal` withdraws a request still waiting: it rejects with BudgetWaitAborted.
   */
  acquire(bytes: number, signal?: AbortSignal): Promise<() => void> {
    const wanted = Math.min(Math.max(0, bytes), this.capacity);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { bytes: wanted, grant: resolve };
      if (this.#waiting.length === 0 && this.#fits(wanted)) {
        this.#grant(waiter);
        return;
      }
      this.#waiting.push(waiter);
      signal?.addEventListener(
        "abort",
        () => {
          const index = this.#waiting.indexOf(waiter);
          if (index === -1) return; // already granted
          this.#waiting.splice(index, 1);
          reject(new BudgetWaitAborted("the request went away while waiting for the body budget"));
          this.#drain();
        },
        { once: true },
      );
    });
  }

  snapshot(): BudgetSnapshot {
    return {
      capacity: this.capacity,
      inFlight: this.#inFlight,
      waiting: this.#waiting.length,
      peak: this.#peak,
    };
  }

  #fits(bytes: number): boolean {
    return this.#inFlight + bytes <= this.capacity;
  }

  #grant(waiter: Waiter): void {
    this.#inFlight += waiter.bytes;
    this.#peak = Math.max(this.#peak, this.#inFlight);
    let released = false;
    waiter.grant(() => {
      if (released) return;
      released = true;
      this.#inFlight -= waiter.bytes;
      this.#drain();
    });
  }

  #drain(): void {
    for (let next = this.#waiting[0]; next !== undefined && this.#fits(next.bytes); next = this.#waiting[0]) {
      this.#waiting.shift();
      this.#grant(next);
    }
  }
}
