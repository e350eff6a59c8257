// One log handle's writes, one at a time in call order (the memory and PostgreSQL backends, and the outboxes;
// the JSONL writer orders its lines itself). Each caller gets its own write's failure; a failed write never blocks the next.
export class WriteQueue {
  #tail: Promise<unknown> = Promise.resolve();

  /** Runs `write` after every write queued before it has settled; resolves or rejects as it does. */
  run<R = void>(write: () => R | Promise<R>): Promise<R> {
    const run = this.#tail.then(write, write);
    this.#tail = run.catch(() => undefined);
    return run;
  }

  /** Resolves once every write queued so far has settled (failures went to their callers). */
  async drained(): Promise<void> {
    await this.#tail;
  }
}
