// Incremental Server-Sent Events decoder (the subset model APIs use): feed text as it arrives, get the `data`
// payload of every complete event. Pure: no streams, no timers, so chunk boundaries can be tested exhaustively.

export class SseDecoder {
  private buffer = "";
  private dataLines: string[] = [];

  /** Feeds decoded text; returns the data payloads of the events completed by it. */
  push(text: string): string[] {
    this.buffer += text;
    const out: string[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      if (!match) break;
      // A lone trailing "\r" may be the first half of "\r\n": wait for the next push to decide.
      if (match[0] === "\r" && match.index === this.buffer.length - 1) break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      this.line(line, out);
    }
    return out;
  }

  /** Ends the input: a last event without its blank line still counts (several servers omit it). */
  end(): string[] {
    const out: string[] = [];
    if (this.buffer.length > 0) {
      this.line(this.buffer.replace(/\r$/, ""), out);
      this.buffer = "";
    }
    this.line("", out);
    return out;
  }

  private line(line: string, out: string[]): void {
    if (line === "") {
      if (this.dataLines.length > 0) out.push(this.dataLines.join("\n"));
      this.dataLines = [];
      return;
    }
    if (line.startsWith(":")) return; // comment / keep-alive
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.dataLines.push(value);
    // event:, id:, retry: carry nothing a chat completion stream needs.
  }
}
