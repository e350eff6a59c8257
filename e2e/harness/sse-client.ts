// A minimal SSE reader over fetch for tests: keeps every frame, lets a test wait for one by predicate.

export interface SseFrame {
  id?: string;
  event?: string;
  data?: string;
  /** Parsed `data` when it is JSON. */
  json?: Record<string, unknown> & { type?: string; data?: Record<string, unknown> };
  raw: string;
}

export class SseClient {
  readonly frames: SseFrame[] = [];
  status = 0;
  headers: Headers | undefined;
  /** Set when the stream broke (daemon killed, connection reset) rather than being closed by us. */
  streamError: Error | undefined;
  /** True once the stream has ended for any reason. */
  ended = false;
  /** Called synchronously for every frame as it arrives (e.g. to SIGKILL the daemon at that instant). */
  onFrame: ((frame: SseFrame) => void) | undefined;
  private readonly controller = new AbortController();
  private waiters: { pred: (f: SseFrame) => boolean; resolve: (f: SseFrame) => void }[] = [];
  private done: Promise<void> | undefined;

  constructor(
    private readonly url: string,
    private readonly headersIn: Record<string, string> = {},
  ) {}

  async open(): Promise<this> {
    const res = await fetch(this.url, { headers: this.headersIn, signal: this.controller.signal });
    this.status = res.status;
    this.headers = res.headers;
    if (!res.ok || !res.body) return this;
    this.done = this.pump(res.body);
    return this;
  }

  private async pump(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buf = "";
    try {
      for await (const chunk of body) {
        buf += decoder.decode(chunk, { stream: true });
        let sep = buf.indexOf("\n\n");
        while (sep !== -1) {
          const raw = buf.slice(0, sep);
          buf = buf.slice(sep + 2);
          this.accept(raw);
          sep = buf.indexOf("\n\n");
        }
      }
    } catch (err) {
      // A killed daemon resets the connection: that is an outcome tests look at, not a crash of the test.
      if ((err as Error).name !== "AbortError") this.streamError = err as Error;
    } finally {
      this.ended = true;
    }
  }

  private accept(raw: string): void {
    const frame: SseFrame = { raw };
    for (const line of raw.split("\n")) {
      const i = line.indexOf(":");
      if (i <= 0) continue;
      const key = line.slice(0, i);
      const value = line.slice(i + 1).replace(/^ /, "");
      if (key === "id") frame.id = value;
      else if (key === "event") frame.event = value;
      else if (key === "data") frame.data = frame.data === undefined ? value : `${frame.data}\n${value}`;
    }
    if (frame.data !== undefined) {
      try {
        frame.json = JSON.parse(frame.data);
      } catch {
        // not JSON: keep the raw data only
      }
    }
    this.frames.push(frame);
    this.onFrame?.(frame);
    this.waiters = this.waiters.filter((w) => {
      if (!w.pred(frame)) return true;
      w.resolve(frame);
      return false;
    });
  }

  /** Resolves with the first frame (already seen or future) matching pred; rejects after timeoutMs. */
  waitFor(pred: (f: SseFrame) => boolean, timeoutMs = 20_000, what = "SSE frame"): Promise<SseFrame> {
    const seen = this.frames.find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const types = this.frames.map((f) => f.event).join(", ");
        reject(new Error(`timed out waiting for ${what}; saw: ${types}`));
      }, timeoutMs);
      this.waiters.push({
        pred,
        resolve: (f) => {
          clearTimeout(timer);
          resolve(f);
        },
      });
    });
  }

  waitForEvent(type: string, timeoutMs?: number): Promise<SseFrame> {
    return this.waitFor((f) => f.event === type, timeoutMs, `event ${type}`);
  }

  /** The turn_complete frame of one prompt (within the default 20 s); `what` names it in the timeout error. */
  waitForTurnComplete(promptId: string, what = `turn_complete of ${promptId}`): Promise<SseFrame> {
    return this.waitFor((f) => f.event === "turn_complete" && f.json?.promptId === promptId, 20_000, what);
  }

  /** Frames of one event type received so far. */
  events(type: string): SseFrame[] {
    return this.frames.filter((f) => f.event === type);
  }

  /** Resolves once the server has ended the stream (or it broke); never closes it from this side. */
  async finished(): Promise<void> {
    await this.done;
  }

  async close(): Promise<void> {
    this.controller.abort();
    await this.done;
  }
}
