// Runs async tasks one at a time per key, in call order; different keys run independently. The answer
// journal uses it per file (one writer at a time), the vote path per permission request (judge, journal and
// resolve one vote before the next is judged, so the journal never holds a losing vote's answer).

export class KeyedSerializer {
  /** The last task queued per key, settled either way; removed once the key goes quiet. */
  readonly #tails = new Map<string, Promise<void>>();

  /** Runs `task` after every task queued earlier under `key` has settled; resolves or rejects as it does. */
  run<T>(key: string, task: () => Promise<T> | T): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.then(task);
    // The chain only orders tasks: each caller gets its own task's failure through `result`.
    const tail = result.then(noop, noop);
    this.#tails.set(key, tail);
    tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }, noop);
    return result;
  }

  /** Keys with a task queued or running (diagnostics and tests). */
  get activeKeys(): number {
    return this.#tails.size;
  }
}

function noop(): void {}
