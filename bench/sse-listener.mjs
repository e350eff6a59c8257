// A lean SSE reader for the benchmarks: one plain socket per stream (node:http, no agent pooling), every
// frame stamped with performance.now() the moment it is parsed, and waiting by predicate.
import { request } from "node:http";

export class SseListener {
  /** `{ event, id, data, json, at }` in arrival order. */
  frames = [];
  #waiters = [];
  #req;

  /** Opens the stream; resolves with the HTTP status once the response headers arrive. */
  open(url, headers = {}) {
    return new Promise((resolve, reject) => {
      this.#req = request(
        url,
        { headers: { accept: "text/event-stream", ...headers }, agent: false },
        (res) => {
          this.status = res.statusCode;
          if (res.statusCode !== 200) {
            res.resume();
            resolve(res.statusCode);
            return;
          }
          res.setEncoding("utf8");
          let buffer = "";
          res.on("data", (chunk) => {
            const at = performance.now();
            buffer += chunk;
            let end = buffer.indexOf("\n\n");
            while (end !== -1) {
              this.#accept(buffer.slice(0, end), at);
              buffer = buffer.slice(end + 2);
              end = buffer.indexOf("\n\n");
            }
          });
          // A stream ending is normal at close(); waiters still pending then fail on their own timeout.
          res.on("error", (error) => {
            if (!this.closed) reject(error);
          });
          resolve(200);
        },
      );
      this.#req.on("error", (error) => {
        if (!this.closed) reject(error);
      });
      this.#req.end();
    });
  }

  #accept(raw, at) {
    const frame = { at };
    for (const line of raw.split("\n")) {
      const colon = line.indexOf(":");
      if (colon <= 0) continue;
      const key = line.slice(0, colon);
      const value = line.slice(colon + 1).replace(/^ /, "");
      if (key === "event") frame.event = value;
      else if (key === "id") frame.id = value;
      else if (key === "data") frame.data = frame.data === undefined ? value : `${frame.data}\n${value}`;
    }
    if (frame.event === undefined && frame.data === undefined) return; // retry: / heartbeat comments
    frame.json = frame.data === undefined ? undefined : JSON.parse(frame.data);
    this.frames.push(frame);
    this.#waiters = this.#waiters.filter((waiter) => {
      if (!waiter.pred(frame)) return true;
      clearTimeout(waiter.timer);
      waiter.resolve(frame);
      return false;
    });
  }

  /** The first frame after index `from` (default: any) that matches; rejects after timeoutMs. */
  waitFor(pred, { from = 0, timeoutMs = 20_000, what = "SSE frame" } = {}) {
    const seen = this.frames.slice(from).find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const waiter = { pred, resolve };
      waiter.timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
        reject(new Error(`timed out waiting for ${what}; saw ${this.frames.map((f) => f.event).join(", ")}`));
      }, timeoutMs);
      this.#waiters.push(waiter);
    });
  }

  close() {
    this.closed = true;
    this.#req?.destroy();
  }
}
