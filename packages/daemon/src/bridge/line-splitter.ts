// Splits a byte stream into text lines, capping each line so a child printing megabytes without a
// newline cannot grow the daemon's memory. Pure: feed chunks, get complete lines.

export class LineSplitter {
  readonly maxLineLength: number;
  #decoder = new TextDecoder();
  #partial = "";
  #truncated = false;

  constructor(maxLineLength: number) {
    this.maxLineLength = maxLineLength;
  }

  /** Complete lines in `chunk` (without the newline); an over-long line is cut and marked once. */
  push(chunk: Uint8Array): string[] {
    return this.#split(this.#decoder.decode(chunk, { stream: true }));
  }

  /** The unterminated rest, if any, as a last line. */
  end(): string[] {
    const rest = this.#split(this.#decoder.decode());
    if (this.#partial === "" && !this.#truncated) return rest;
    const last = this.#emit();
    return [...rest, last];
  }

  #split(text: string): string[] {
    const lines: string[] = [];
    let start = 0;
    for (;;) {
      const nl = text.indexOf("\n", start);
      if (nl === -1) break;
      this.#append(text.slice(start, nl));
      lines.push(this.#emit());
      start = nl + 1;
    }
    this.#append(text.slice(start));
    return lines;
  }

  #append(text: string): void {
    if (this.#truncated) return;
    const room = this.maxLineLength - this.#partial.length;
    if (text.length <= room) {
      this.#partial += text;
    } else {
      this.#partial += text.slice(0, room);
      this.#truncated = true;
    }
  }

  #emit(): string {
    const line = this.#partial.replace(/\r$/, "") + (this.#truncated ? " …[truncated]" : "");
    this.#partial = "";
    this.#truncated = false;
    return line;
  }
}
