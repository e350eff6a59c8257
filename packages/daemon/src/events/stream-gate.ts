// How many SSE streams the daemon has open, across sessions. Each stream holds a connection for as long as
// its client listens; without a cap of their own, streams could take every connection `--max-connections`
// allows, and then even /health would be refused. A cap below it keeps room for ordinary requests.

export class StreamGate {
  /** 0 = no cap. */
  readonly limit: number;
  #open = 0;

  constructor(limit: number) {
    this.limit = limit;
  }

  get open(): number {
    return this.#open;
  }

  /** Takes a slot; returns its release (idempotent), or undefined when the cap is reached. */
  tryAcquire(): (() => void) | undefined {
    if (this.limit > 0 && this.#open >= this.limit) return undefined;
    this.#open += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#open -= 1;
    };
  }
}

/**
 * The default stream cap for a connection cap: three quarters of it, so a quarter (at least one
 * connection) stays for everything else. No connection cap, no stream cap.
 */
export function defaultMaxEventStreams(maxConnections: number): number {
  if (maxConnections === 0) return 0;
  return Math.max(1, maxConnections - Math.max(1, Math.ceil(maxConnections / 4)));
}
