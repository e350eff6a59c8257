// The capability in an action URL (docs/notifications.md): `v1.<payload>.<signature>`, the payload the JSON of
// the contract's LinkCapability in base64url, the signature HMAC-SHA256 over `v1.<payload>` with the daemon's
// link key, base64url. Pure: the key and the time come in. Verification checks the length, the form, the
// signature (in constant time) before it reads the payload, then the payload's shape and its expiry.
import { createHmac, timingSafeEqual } from "node:crypto";
import {
  type LinkCapability,
  LinkCapability as LinkCapabilitySchema,
  MAX_CAPABILITY_LENGTH,
} from "@qwen-daemon/core/protocol";

const VERSION = "v1";
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export type CapabilityProblem =
  /** Not a capability at all (wrong form, too long, not base64url, not our version). */
  | "malformed"
  /** Well formed, but not signed by this daemon's current key (tampered, foreign, or an old key). */
  | "bad_signature"
  /** Signed by us, but the payload is not a capability (only a key holder could make one). */
  | "bad_payload"
  | "expired";

export type CapabilityCheck =
  | { ok: true; capability: LinkCapability }
  | { ok: false; problem: CapabilityProblem };

export function signCapability(key: Buffer, capability: LinkCapability): string {
  const payload = Buffer.from(JSON.stringify(LinkCapabilitySchema.parse(capability))).toString("base64url");
  return `${VERSION}.${payload}.${mac(key, payload)}`;
}

/** `nowSeconds`: the clock, in seconds since the epoch. */
export function verifyCapability(key: Buffer, token: string, nowSeconds: number): CapabilityCheck {
  if (token.length > MAX_CAPABILITY_LENGTH) return { ok: false, problem: "malformed" };
  const parts = token.split(".");
  if (parts.length !== 3) return { ok: false, problem: "malformed" };
  const [version, payload, signature] = parts as [string, string, string];
  if (version !== VERSION || !BASE64URL.test(payload) || !BASE64URL.test(signature)) {
    return { ok: false, problem: "malformed" };
  }
  // The text is compared, not the decoded bytes: base64url's last character has spare bits, so several
  // spellings decode to the same signature, and a changed link must never work.
  const expected = Buffer.from(mac(key, payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, problem: "bad_signature" };
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return { ok: false, problem: "bad_payload" };
  }
  const parsed = LinkCapabilitySchema.safeParse(value);
  if (!parsed.success) return { ok: false, problem: "bad_payload" };
  if (parsed.data.e <= nowSeconds) return { ok: false, problem: "expired" };
  return { ok: true, capability: parsed.data };
}

function mac(key: Buffer, payload: string): string {
  return createHmac("sha256", key).update(`${VERSION}.${payload}`).digest("base64url");
}
