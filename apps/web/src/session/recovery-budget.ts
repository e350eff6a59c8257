// At most N automatic reloads of a session per window: a daemon that keeps failing leaves the person a
// button instead of a reload loop. Pure: the clock is passed in.
export class RecoveryBudget {
  #times: number[] = [];

  constructor(
    readonly max = 3,
    readonly windowMs = 60_000,
  ) {}

  /** Takes one reload if the window has room; false when the budget is spent. */
  take(now: number): boolean {
    this.#times = this.#times.filter((t) => now - t < this.windowMs);
    if (this.#times.length >= this.max) return false;
    this.#times.push(now);
    return true;
  }

  reset(): void {
    this.#times = [];
  }
}
