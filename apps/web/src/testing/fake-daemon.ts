// Test doubles for the session controller: an API whose routes a test scripts, event streams the test
// drives by hand, and a clock whose timers run only when the test says so.
import { type Api, ApiError, UnreachableError } from "../net/api.js";
import type { DaemonEvent } from "../net/daemon-event.js";
import type { EventStream, StreamEnd, StreamState } from "../net/event-stream.js";
import type { Clock, StreamOptions } from "../session/controller-types.js";

export type Call = { method: string; path: string; body: unknown; clientId: string | undefined };
type Route = (call: Call) => unknown;

/** An API answering from routes keyed "METHOD /path"; unknown routes are 404s; `down` makes it unreachable. */
export class FakeApi implements Api {
  readonly calls: Call[] = [];
  readonly routes = new Map<string, Route>();
  down = false;

  on(route: string, answer: Route): this {
    this.routes.set(route, answer);
    return this;
  }

  async request<T>(method: string, path: string, body?: unknown, clientId?: string): Promise<T> {
    const call = { method, path, body, clientId };
    this.calls.push(call);
    await Promise.resolve();
    if (this.down) throw new UnreachableError("Failed to fetch");
    const route = this.routes.get(`${method} ${path}`);
    if (!route) throw new ApiError(404, `No route ${method} ${path}`, undefined, {});
    const out = route(call);
    if (out instanceof Error) throw out;
    return out as T;
  }

  headers(clientId: string | undefined): Record<string, string> {
    return clientId ? { "x-qwen-client-id": clientId } : {};
  }

  callsTo(method: string, path: string): Call[] {
    return this.calls.filter((c) => c.method === method && c.path === path);
  }
}

export class FakeStream implements EventStream {
  closed = false;
  wakes = 0;
  constructor(readonly options: StreamOptions) {}
  get lastEventId() {
    return this.options.lastEventId;
  }
  get epoch() {
    return this.options.epoch;
  }
  readonly done = Promise.resolve();
  close() {
    this.closed = true;
  }
  wake() {
    this.wakes += 1;
  }
  /** A frame as the daemon would send it; tests may send any type and data (the page must cope). */
  emit(type: string, data: unknown = {}, extra: Partial<DaemonEvent> = {}) {
    this.options.onEvent({ type, data, ...extra } as DaemonEvent);
  }
  state(state: StreamState, detail?: string) {
    this.options.onState?.(state, detail);
  }
  end(end: StreamEnd) {
    this.options.onEnd(end);
  }
}

export class FakeStreams {
  readonly all: FakeStream[] = [];
  readonly open = (options: StreamOptions): EventStream => {
    const stream = new FakeStream(options);
    this.all.push(stream);
    return stream;
  };
  get last(): FakeStream {
    const s = this.all.at(-1);
    if (!s) throw new Error("no stream was opened");
    return s;
  }
}

export class ManualClock implements Clock {
  time = 1_000_000;
  #timers = new Map<number, { at: number; run: () => void }>();
  #next = 1;
  now() {
    return this.time;
  }
  setTimeout(run: () => void, ms: number): unknown {
    const id = this.#next++;
    this.#timers.set(id, { at: this.time + ms, run });
    return id;
  }
  clearTimeout(handle: unknown) {
    this.#timers.delete(handle as number);
  }
  get pending(): number {
    return this.#timers.size;
  }
  /** Moves time forward, running every timer that comes due (in order). */
  advance(ms: number) {
    const until = this.time + ms;
    for (;;) {
      const due = [...this.#timers.entries()]
        .filter(([, t]) => t.at <= until)
        .sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.#timers.delete(due[0]);
      this.time = due[1].at;
      due[1].run();
    }
    this.time = until;
  }
}

export function memoryStorage() {
  const map = new Map<string, string>();
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => {
      map.set(k, v);
    },
    map,
  };
}

/** Lets pending promise callbacks (a fake request's answer) run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}
