// Requests to the routes that only read (the event stream, status, pending prompts, the transcript, the
// workspace's session list), with odd ids, cursors and limits. Reads may name the victim's own clients.
import { hostileHeaders } from "./hostile-parts.js";
import { pathSessionId } from "./hostile-values.js";
import type { Prng } from "./prng.js";
import type { FuzzTarget, HostileRequest } from "./request-types.js";

export function eventStream(rng: Prng, t: FuzzTarget): HostileRequest {
  const query = rng.pick([
    "",
    "?maxQueued=16",
    "?maxQueued=1",
    "?maxQueued=99999",
    "?maxQueued=abc",
    "?maxQueued=16&maxQueued=32",
  ]);
  return {
    kind: "http",
    method: rng.pick(["GET", "GET", "HEAD"]),
    path: `/session/${rng.chance(0.8) ? t.victim : pathSessionId(rng, [t.victim])}/events${query}`,
    headers: hostileHeaders(rng, t, true),
    stream: true,
    note: "events",
  };
}

export function sessionRead(rng: Prng, t: FuzzTarget): HostileRequest {
  const suffix = rng.pick([
    "/status",
    "/pending-prompts",
    "/transcript",
    "/transcript?limit=1",
    "/transcript?limit=0",
    "/transcript?limit=501",
    "/transcript?limit=-1",
    "/transcript?limit=1e3",
    "/transcript?limit=%00",
  ]);
  return {
    kind: "http",
    method: "GET",
    path: `/session/${t.victim}${suffix}`,
    headers: hostileHeaders(rng, t, true),
    note: "read",
  };
}

export function workspaceListing(rng: Prng, t: FuzzTarget): HostileRequest {
  const cwd = rng.pick([
    encodeURIComponent(t.workspace),
    "%2Fetc",
    "relative",
    "..",
    "%2F..%2F..%2F",
    encodeURIComponent(`${t.workspace}/../..`),
    "%00",
    "x".repeat(3000),
  ]);
  const query = rng.pick([
    "",
    "?size=1",
    "?size=0",
    "?size=-1",
    "?size=100000",
    "?cursor=%00",
    "?cursor=x".repeat(1),
    "?size=abc&cursor=zz",
  ]);
  return {
    kind: "http",
    method: "GET",
    path: `/workspace/${cwd}/sessions${query}`,
    headers: hostileHeaders(rng, t, true),
    note: "listing",
  };
}
