// Values an attacker puts where the daemon expects ids, strings and JSON: path tricks, wrong types, prototype
// keys, oversized and deeply nested values. Drawn from a seeded Prng, so a run can be repeated exactly.
import type { Prng } from "./prng.js";

/** Session ids as they appear in a URL path (already percent-encoded where needed). */
export const PATH_TRICK_IDS: readonly string[] = [
  "..",
  ".",
  "%2e%2e",
  "..%2F..%2Foutside",
  "..%2f..%2f..%2fetc%2fpasswd",
  "%2E%2E%5C..%5Cwin",
  "a%2Fb",
  "a%00b",
  "%00",
  "x%0D%0Aqwen%20serve:%20FORGED",
  "%E2%80%AEevil",
  "%F0%9F%92%A9",
  "%C0%AE%C0%AE",
  "%ZZ",
  "%",
  "CON",
  "x.jsonl",
  "x.answers",
  "x.ledger",
  "~root",
  "$HOME",
  "a%20b",
  "-rf",
  "__proto__",
  "constructor",
  "prototype",
  "null",
  "undefined",
];

/** A session id for a path: real, random well-formed, tricky, or oversized. */
export function pathSessionId(rng: Prng, real: readonly string[]): string {
  return rng.weighted<() => string>([
    [4, () => rng.pick(real)],
    [3, () => `fuzz-${rng.string(rng.int(1, 20))}`],
    [5, () => rng.pick(PATH_TRICK_IDS)],
    [1, () => rng.string(rng.int(129, 400))],
    [1, () => `${rng.pick(real)}${rng.pick(["%2F..", "/..", "%00", ".jsonl", "%20"])}`],
  ])();
}

/** A client id header value: registered (for harmless requests only), unregistered, or malformed. */
export function clientIdValue(
  rng: Prng,
  registered: readonly string[],
  allowRegistered: boolean,
): string | undefined {
  return rng.weighted<() => string | undefined>([
    [allowRegistered ? 3 : 0, () => rng.pick(registered)],
    [3, () => `client_${rng.string(36, "0123456789abcdef-")}`],
    [
      2,
      () => rng.pick(["", " ", "a b", "x".repeat(129), "../x", "client_\u00e9", "client;drop", "<script>"]),
    ],
    [1, () => undefined],
  ])();
}

/**
 * A client id that must be refused: unregistered or malformed, never empty or absent (an empty header is
 * no client id at all, and anonymous cancels and prompts are allowed).
 */
export function refusedClientId(rng: Prng): string {
  return rng.weighted<() => string>([
    [3, () => `client_${rng.string(36, "0123456789abcdef-")}`],
    // Not " ": header values are trimmed, so that one arrives as no client id at all.
    [1, () => rng.pick(["a b", "x".repeat(129), "../x", "client_\u00e9", "client;drop", "<script>"])],
  ])();
}

/** JSON values of every type, some hostile. */
export function jsonValue(rng: Prng, depth = 0): unknown {
  const leaf = () =>
    rng.pick<unknown>([
      null,
      true,
      false,
      0,
      -1,
      1e308,
      -0,
      0.5,
      Number.MAX_SAFE_INTEGER + 2,
      "",
      "x",
      "../../etc/passwd",
      "\u0000\r\n",
      "%0D%0A",
      rng.string(rng.int(0, 40)),
    ]);
  if (depth > 3) return leaf();
  return rng.weighted<() => unknown>([
    [6, leaf],
    [1, () => Array.from({ length: rng.int(0, 4) }, () => jsonValue(rng, depth + 1))],
    [1, () => hostileObject(rng, depth + 1)],
  ])();
}

/** An object with prototype keys and look-alikes beside ordinary ones. */
export function hostileObject(rng: Prng, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const keys = [
    "__proto__",
    "constructor",
    "prototype",
    "toString",
    "valueOf",
    "hasOwnProperty",
    "then",
    "x",
    "_meta",
  ];
  for (let i = rng.int(0, 4); i > 0; i -= 1) out[rng.pick(keys)] = jsonValue(rng, depth + 1);
  return out;
}

/** JSON text in which `__proto__` really is a key (JSON.stringify of an object cannot produce that). */
export function withProtoKey(json: string): string {
  return json.startsWith("{") && json.length > 2
    ? `{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},${json.slice(1)}`
    : json;
}

/** `depth` nested arrays or objects around a value. */
export function deepJson(depth: number, kind: "array" | "object"): string {
  return kind === "array"
    ? `${"[".repeat(depth)}1${"]".repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
}

/** A string `daemon _meta` keys a client must not be able to set. */
export function forgedMeta(rng: Prng): Record<string, unknown> {
  const keys = [
    "qwen.daemon.restoreAskUserQuestion",
    "qwen.daemon.suppressRestoreAskUserQuestion",
    "qwen.daemon.promptId",
    "qwen.daemon.continueLastTurn",
    "qwen.daemon.permissionCancelReason",
    "qwen-code/sessionId",
  ];
  const meta: Record<string, unknown> = {};
  for (let i = rng.int(1, keys.length); i > 0; i -= 1)
    meta[rng.pick(keys)] = rng.pick([true, "x", 1, { a: 1 }]);
  return meta;
}
