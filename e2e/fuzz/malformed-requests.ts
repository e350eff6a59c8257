// The requests that attack the transport rather than a route's meaning: unknown routes, raw bytes that are
// not quite HTTP, uploads cut off mid-body and bodies nested a million deep. Pure, like hostile-requests.ts:
// each draws from the run's one Prng in a fixed order, so a seed always yields the same requests.
import { deepJson } from "./hostile-values.js";
import type { Prng } from "./prng.js";
import { type FuzzTarget, type Guard, type HostileRequest, JSON_HEADERS } from "./request-types.js";

export function unknownRoute(rng: Prng): HostileRequest {
  return {
    kind: "http",
    method: rng.pick(["PUT", "PATCH", "OPTIONS", "GET", "POST", "DELETE"]),
    path: rng.pick([
      "/session",
      "/session/x/unknown",
      "/admin",
      "/..%2f..%2fetc%2fpasswd",
      "/permission",
      "/workspace",
      "/%2e%2e/",
      "/session//load",
      "/favicon.ico",
    ]),
    headers: { ...JSON_HEADERS },
    body: "{}",
    note: "unknown route",
  };
}

export function rawRequest(rng: Prng, t: FuzzTarget): HostileRequest {
  const host = "Host: 127.0.0.1\r\n";
  const bytes = rng.pick([
    "GARBAGE\r\n\r\n",
    "GET / HTTP/9.9\r\n\r\n",
    "GET /health\r\n\r\n",
    `GET /health HTTP/1.1\r\n${host}X-Bad: a\u0000b\r\n\r\n`,
    `GET /health HTTP/1.1\r\n${host}X-Big: ${"x".repeat(20_000)}\r\n\r\n`,
    `POST /session HTTP/1.1\r\n${host}Content-Length: 2\r\nContent-Length: 5\r\n\r\n{}`,
    `POST /session HTTP/1.1\r\n${host}Content-Length: abc\r\n\r\n{}`,
    `POST /session HTTP/1.1\r\n${host}Content-Length: -1\r\n\r\n{}`,
    `POST /session HTTP/1.1\r\n${host}Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
    `POST /session HTTP/1.1\r\n${host}Transfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
    `GET /session/${t.victim}/status HTTP/1.1\r\nHost: evil.example\r\n\r\n`,
    `GET /session/../../etc/passwd HTTP/1.1\r\n${host}\r\n`,
    `GET /session/${t.victim}/../../x HTTP/1.1\r\n${host}\r\n`,
    `GET http://evil.example/health HTTP/1.1\r\n${host}\r\n`,
    `GET /health HTTP/1.1\r\n${host}\r\nGET /capabilities HTTP/1.1\r\n${host}\r\n`,
    `POST /session/${t.victim}/prompt HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: 4\r\n\r\n\u00ff\u00fe\u00fd\u00fc`,
    `GET /health HTTP/1.1\r\n${host}Expect: 100-continue\r\n\r\n`,
    `GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n`,
    `\r\n\r\n\r\n`,
  ]);
  return { kind: "raw", bytes, note: "raw" };
}

/** Where a large, deep or cut-off body goes; on the vote route it must never resolve the question. */
export function bodyTarget(rng: Prng, t: FuzzTarget): { path: string; guard?: Guard } {
  const path = rng.pick([
    `/session/${t.victim}/prompt`,
    "/session",
    `/session/${t.victim}/permission/${t.requestId}`,
  ]);
  return { path, ...(path.includes("/permission/") ? { guard: "vote_on_waiting_question" as const } : {}) };
}

export function abortedUpload(rng: Prng, t: FuzzTarget): HostileRequest {
  const body = JSON.stringify({ prompt: [{ type: "text", text: "y".repeat(rng.int(100, 200_000)) }] });
  return {
    kind: "http",
    method: "POST",
    ...bodyTarget(rng, t),
    headers: { ...JSON_HEADERS, "x-qwen-client-id": `client_${rng.string(8)}` },
    body,
    abortAfter: rng.int(1, Math.max(1, body.length - 1)),
    note: "aborted upload",
  };
}

export function deepBody(rng: Prng, t: FuzzTarget): HostileRequest {
  const depth = rng.pick([1000, 10_000, 100_000, 1_000_000]);
  const inner = deepJson(depth, rng.pick(["array", "object"] as const));
  const body = rng.pick([
    inner,
    `{"prompt":[{"type":"text","text":"x","_meta":${inner}}]}`,
    `{"outcome":{"outcome":"selected","optionId":"proceed_once"},"answers":${inner}}`,
    `{"cwd":${inner}}`,
  ]);
  return {
    kind: "http",
    method: "POST",
    ...bodyTarget(rng, t),
    headers: { ...JSON_HEADERS, "x-qwen-client-id": `client_${rng.string(8)}` },
    body,
    note: `deep ${depth}`,
  };
}
