// Whether a request has a body, and how long it says it is, without building a fetch Request. On the Node
// server, Hono's request is a light wrapper over Node's `IncomingMessage`: reading `c.req.raw.body` (or
// `signal`) makes it build the whole fetch Request (a Headers copy, a web stream over the socket), after which
// the body is read through that stream instead of straight off the socket. For a small JSON body (a vote)
// that was a third of the daemon's work before its handler ran (bench/vote-latency.mjs, a CPU profile), so
// the middleware in front of every route asks here instead.
import type { Context } from "hono";

type NodeEnv = { incoming?: unknown } | undefined;

/**
 * Whether `c.req.raw.body` is a stream (not null). The Node server gives one to every request but GET and HEAD
 * (and TRACE, which it sends on as a GET), whatever its headers say; in-process requests (tests) are asked.
 */
export function hasRequestBody(c: Context): boolean {
  if ((c.env as NodeEnv)?.incoming === undefined) return c.req.raw.body !== null;
  const method = c.req.method;
  return method !== "GET" && method !== "HEAD" && method !== "TRACE";
}

/**
 * The body's length as its `Content-Length` declares it, when that header bounds the body: present, and no
 * `Transfer-Encoding` beside it (HTTP/1.1 then reads chunks and ignores the length). Undefined otherwise.
 */
export function declaredBodyLength(c: Context): number | undefined {
  const declared = c.req.header("content-length");
  if (declared === undefined || c.req.header("transfer-encoding") !== undefined) return undefined;
  return Number.parseInt(declared, 10);
}
