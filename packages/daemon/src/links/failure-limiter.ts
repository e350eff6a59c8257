// Failed answer links per address (a bad, tampered, expired or unknown capability): after `max` failures
// within `windowMs`, the address gets only a "too many attempts" page until its oldest failure leaves the
// window, so nobody can try capabilities at speed. Pure: the time comes in. Bounded in memory: at most
// `maxAddresses` addresses are tracked, the least recently failing forgotten first.
export type FailureLimiterOptions = { max: number; windowMs: number; maxAddresses?: number };

export class FailureLimiter {
  readonly #options: Required<FailureLimiterOptions>;
  /** Failure times per address, oldest first; the Map's order is least recently failing first. */
  readonly #failures = new Map<string, number[]>();

  constructor(options: FailureLimiterOptions) {
    this.#options = { maxAddresses: 10_000, ...options };
  }

  /** True while the address may not try again. */
  blocked(address: string, now: number): boolean {
    return this.#recent(address, now).length >= this.#options.max;
  }

  fail(address: string, now: number): void {
    const times = this.#recent(address, now);
    times.push(now);
    this.#failures.delete(address);
    this.#failures.set(address, times);
    while (this.#failures.size > this.#options.maxAddresses) {
      this.#failures.delete(this.#failures.keys().next().value as string);
    }
  }

  #recent(address: string, now: number): number[] {
    const times = this.#failures.get(address) ?? [];
    const kept = times.filter((t) => now - t < this.#options.windowMs);
    if (kept.length === 0) this.#failures.delete(address);
    else if (kept.length !== times.length) this.#failures.set(address, kept);
    return kept;
  }
}
