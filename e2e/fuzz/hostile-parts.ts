// The parts every hostile request is built from: headers (a client id that may or may not be attached, odd
// origins, auth, content types, cursors) and JSON bodies (hostile objects, prototype keys, broken JSON).
import { clientIdValue, hostileObject, jsonValue, withProtoKey } from "./hostile-values.js";
import type { Prng } from "./prng.js";
import { type FuzzTarget, JSON_HEADERS } from "./request-types.js";

export function hostileHeaders(
  rng: Prng,
  t: FuzzTarget,
  allowRegistered: boolean,
  extra: Record<string, string> = {},
): Record<string, string> {
  const headers: Record<string, string> = { ...JSON_HEADERS, ...extra };
  const clientId = clientIdValue(rng, t.registered, allowRegistered);
  if (clientId !== undefined) headers["x-qwen-client-id"] = clientId;
  if (rng.chance(0.05)) headers.origin = rng.pick(["http://evil.example", "null", "file://"]);
  if (rng.chance(0.05))
    headers.authorization = rng.pick(["Bearer x", "Basic Zm9v", "Bearer", "x".repeat(500)]);
  if (rng.chance(0.03))
    headers["content-type"] = rng.pick([
      "text/plain",
      "application/x-www-form-urlencoded",
      "application/json; charset=latin1",
    ]);
  if (rng.chance(0.05))
    headers["last-event-id"] = rng.pick(["-1", "1e9", "99999999999999999999", "abc", "0", " 3 "]);
  if (rng.chance(0.03)) headers["x-qwen-event-epoch"] = rng.pick(["x".repeat(100), "../../", "epoch"]);
  if (rng.chance(0.02)) headers["x-forwarded-for"] = "127.0.0.1";
  return headers;
}

export function hostileBody(rng: Prng): string {
  return rng.weighted<() => string>([
    [3, () => JSON.stringify(hostileObject(rng))],
    [2, () => JSON.stringify(jsonValue(rng))],
    [2, () => withProtoKey(JSON.stringify({ ...hostileObject(rng), x: 1 }))],
    [1, () => rng.pick(["", "{", "}", "[", "nul", '{"a":}', '{"a":1,}', "\u0000", "\ufeff{}", "{}{}", "💩"])],
    [1, () => rng.string(rng.int(1, 200), '{}[]":,0123456789abcnulltrue ')],
  ])();
}
