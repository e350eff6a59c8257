// Bounded capture of a command's output: keeps the first and the last half of the budget, because the
// start (what ran) and the end (the error, the summary) are what the model needs; the middle is dropped
// with a note saying how much.

export class OutputCap {
  readonly #half: number;
  #head: Buffer[] = [];
  #headBytes = 0;
  #tail: Buffer[] = [];
  #tailBytes = 0;
  #omitted = 0;

  constructor(maxBytes: number) {
    this.#half = Math.max(1, Math.floor(maxBytes / 2));
  }

  push(chunk: Buffer): void {
    let rest = chunk;
    if (this.#headBytes < this.#half) {
      const take = Math.min(this.#half - this.#headBytes, rest.length);
      this.#head.push(rest.subarray(0, take));
      this.#headBytes += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0) return;
    this.#tail.push(rest);
    this.#tailBytes += rest.length;
    while (this.#tailBytes > this.#half) {
      const first = this.#tail[0] as Buffer;
      const excess = this.#tailBytes - this.#half;
      if (first.length <= excess) {
        this.#tail.shift();
        this.#tailBytes -= first.length;
        this.#omitted += first.length;
      } else {
        this.#tail[0] = first.subarray(excess);
        this.#tailBytes -= excess;
        this.#omitted += excess;
      }
    }
  }

  get omittedBytes(): number {
    return this.#omitted;
  }

  /** The captured text; a cut may split a multi-byte character, which decodes as U+FFFD. */
  text(): string {
    if (this.#omitted === 0) return Buffer.concat([...this.#head, ...this.#tail]).toString("utf8");
    const head = Buffer.concat(this.#head).toString("utf8");
    const tail = Buffer.concat(this.#tail).toString("utf8");
    return `${head}\n[... ${this.#omitted} bytes of output omitted ...]\n${tail}`;
  }
}
