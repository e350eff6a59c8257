// The model client's HTTP stack: node:http / node:https with one keep-alive agent each, behind the small
// slice of the fetch API the OpenAI provider uses (status, headers.get, text, json, a body reader).
// Why not the global fetch: in Node 20 its first call evaluates the whole bundled undici (measured on this
// project's machine: ~17 MB RSS and ~100 ms in a cold process, against ~3 MB and a few ms for node:http), and
// a user pays that on the first prompt of every fresh child. Tests may still inject a real fetch.
import type { Agent as HttpAgent, IncomingMessage, RequestOptions } from "node:http";
import type { HeaderReader } from "./http-error.js";

/** What the provider reads from a response; a fetch `Response` has all of it. */
export interface ModelHttpResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly headers: HeaderReader;
  readonly body: { getReader(): { read(): Promise<{ done: boolean; value?: Uint8Array }> } } | null;
  text(): Promise<string>;
  json(): Promise<unknown>;
}

export interface ModelHttpRequest {
  method: "POST";
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
}

/** A fetch-shaped function returning at least what the provider reads (the global fetch qualifies). */
export type ModelFetch = (url: string, init: ModelHttpRequest) => Promise<ModelHttpResponse>;

interface Stack {
  request: typeof import("node:http").request;
  agent: HttpAgent;
}

// Loaded on first use, not at import: node:http is not otherwise needed by a child at start, and node:https
// (tls) costs a few MB that a loopback model never needs. Idle sockets stay open for the next request (a
// turn makes one per model step); agents unref them, so they never keep the process alive.
const stacks = new Map<string, Promise<Stack>>();
function stackFor(protocol: "http:" | "https:"): Promise<Stack> {
  let stack = stacks.get(protocol);
  if (!stack) {
    stack =
      protocol === "https:"
        ? import("node:https").then((m) => ({ request: m.request, agent: new m.Agent({ keepAlive: true }) }))
        : import("node:http").then((m) => ({ request: m.request, agent: new m.Agent({ keepAlive: true }) }));
    stacks.set(protocol, stack);
  }
  return stack;
}

/** Loads the stack for `baseUrl` ahead of the first request (a child does it while idle after start). */
export async function preloadHttpStack(baseUrl: string): Promise<void> {
  const { protocol } = new URL(baseUrl);
  if (protocol === "http:" || protocol === "https:") await stackFor(protocol);
}

/** POSTs over node:http(s). Rejects like fetch: on a network failure, or on abort with an AbortError. */
export const nodeHttpFetch: ModelFetch = async (url, init) => {
  const target = new URL(url);
  if (target.protocol !== "http:" && target.protocol !== "https:")
    throw new TypeError(`unsupported protocol ${target.protocol} in ${url}`);
  const stack = await stackFor(target.protocol);
  return new Promise((resolve, reject) => {
    const body = Buffer.from(init.body);
    const options: RequestOptions = {
      method: init.method,
      headers: { ...init.headers, "content-length": String(body.length) },
      agent: stack.agent,
    };
    if (init.signal.aborted) {
      reject(abortError());
      return;
    }
    let response: IncomingMessage | undefined;
    const req = stack.request(target, options, (res) => {
      response = res;
      resolve(new NodeHttpResponse(res));
    });
    // Not `options.signal`: node:http hands it to the pooled socket too, which then dies with an uncaught
    // AbortError when the signal fires after the socket went back to the pool. An abort destroys this request
    // and its response, unless that was complete: its socket may be back in the pool, for the next request.
    const onAbort = () => {
      if (!response?.complete) req.destroy(abortError());
    };
    init.signal.addEventListener("abort", onAbort, { once: true });
    req.once("close", () => init.signal.removeEventListener("abort", onAbort));
    // After the response arrived an error (an abort, a reset) surfaces on the body instead; a listener
    // stays so such a late error is not an uncaught one.
    req.on("error", reject);
    req.end(body);
  });
};

function abortError(): Error {
  return new DOMException("This operation was aborted", "AbortError");
}

class NodeHttpResponse implements ModelHttpResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly headers: HeaderReader;
  readonly body: ModelHttpResponse["body"];

  constructor(private readonly res: IncomingMessage) {
    // An abort or a reset destroys the body with an error. A reader sees it through its iterator; when no one
    // is reading (the provider stops at [DONE] and aborts to let go of the socket) it must not be uncaught.
    res.on("error", () => {});
    this.status = res.statusCode ?? 0;
    this.ok = this.status >= 200 && this.status < 300;
    this.statusText = res.statusMessage ?? "";
    this.headers = {
      get: (name) => {
        const value = res.headers[name.toLowerCase()];
        if (value === undefined) return null;
        return Array.isArray(value) ? value.join(", ") : value;
      },
    };
    this.body = {
      getReader: () => {
        const chunks = res[Symbol.asyncIterator]();
        return {
          read: async () => {
            const next = await chunks.next();
            return next.done ? { done: true } : { done: false, value: next.value as Uint8Array };
          },
        };
      },
    };
  }

  async text(): Promise<string> {
    const parts: Buffer[] = [];
    for await (const chunk of this.res) parts.push(chunk as Buffer);
    return Buffer.concat(parts).toString("utf8");
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }
}
