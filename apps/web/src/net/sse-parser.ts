// Incremental parser for `text/event-stream`, per the WHATWG rules the browser's EventSource follows:
// lines end in CRLF, LF or CR; `:` lines are comments (the daemon's heartbeats); a blank line dispatches.
// We cannot use EventSource itself: it cannot send Authorization or X-Qwen-Client-Id headers.

/**
 * One dispatched message. `id` is set only when the frame had an `id:` line, so a frame without one
 * (such as `replay_complete`) never moves the client's cursor.
 */
export type SseMessage = { event: string; data: string; id?: string };

export class SseParser {
  #buffer = "";
  #started = false;
  #afterCr = false;
  #data: string[] = [];
  #event = "";
  #id: string | undefined = undefined;
  #retry: number | undefined = undefined;

  /** The reconnection delay the server last asked for (`retry:`), if any. */
  get retry(): number | undefined {
    return this.#retry;
  }

  /** Feeds decoded text; returns the messages it completed. */
  push(text: string): SseMessage[] {
    if (text === "") return [];
    if (!this.#started) {
      this.#started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    // A CR ended the previous chunk: an LF opening this one is the second half of that CRLF.
    if (this.#afterCr && text.startsWith("\n")) text = text.slice(1);
    this.#afterCr = false;
    this.#buffer += text;
    const out: SseMessage[] = [];
    let start = 0;
    for (;;) {
      const lf = this.#buffer.indexOf("\n", start);
      const cr = this.#buffer.indexOf("\r", start);
      if (lf === -1 && cr === -1) break;
      const end = cr !== -1 && (lf === -1 || cr < lf) ? cr : lf;
      let next = end + 1;
      if (end === cr) {
        if (next === this.#buffer.length) this.#afterCr = true;
        else if (this.#buffer[next] === "\n") next += 1;
      }
      const message = this.#line(this.#buffer.slice(start, end));
      if (message) out.push(message);
      start = next;
    }
    this.#buffer = this.#buffer.slice(start);
    return out;
  }

  #line(line: string): SseMessage | undefined {
    if (line === "") return this.#dispatch();
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.#data.push(value);
    else if (field === "event") this.#event = value;
    else if (field === "id" && !value.includes("\0")) this.#id = value;
    else if (field === "retry" && /^\d+$/.test(value)) this.#retry = Number(value);
    return undefined;
  }

  #dispatch(): SseMessage | undefined {
    const hadData = this.#data.length > 0;
    const message: SseMessage = { event: this.#event || "message", data: this.#data.join("\n") };
    if (this.#id !== undefined) message.id = this.#id;
    this.#data = [];
    this.#event = "";
    this.#id = undefined;
    return hadData ? message : undefined;
  }
}
