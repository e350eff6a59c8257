import { createHmac, randomBytes } from "node:crypto";
import type { LinkCapability } from "@qwen-daemon/core/protocol";
import { describe, expect, it } from "vitest";
import { signCapability, verifyCapability } from "./capability.js";

const key = randomBytes(32);
const capability: LinkCapability = {
  v: 1,
  s: "session-1",
  t: "call-1",
  l: "Blue",
  d: {
    kind: "vote",
    vote: { outcome: { outcome: "selected", optionId: "proceed_once" }, answers: { "0": "Blue" } },
  },
  e: 2_000_000_000,
  n: "nonce-123456",
};

describe("answer-link capabilities", () => {
  it("verifies what it signed, until it expires", () => {
    const token = signCapability(key, capability);
    expect(token).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(verifyCapability(key, token, 1_999_999_999)).toEqual({ ok: true, capability });
    expect(verifyCapability(key, token, 2_000_000_000)).toEqual({ ok: false, problem: "expired" });
  });

  it("refuses another key's, a changed payload, a changed signature and junk", () => {
    const token = signCapability(key, capability);
    expect(verifyCapability(randomBytes(32), token, 0)).toEqual({ ok: false, problem: "bad_signature" });
    const [v, payload, sig] = token.split(".") as [string, string, string];
    const other = Buffer.from(JSON.stringify({ ...capability, l: "Green" })).toString("base64url");
    expect(verifyCapability(key, `${v}.${other}.${sig}`, 0)).toEqual({ ok: false, problem: "bad_signature" });
    const flipped = `${sig.slice(0, -2)}${sig.endsWith("AA") ? "AB" : "AA"}`;
    expect(verifyCapability(key, `${v}.${payload}.${flipped}`, 0)).toEqual({
      ok: false,
      problem: "bad_signature",
    });
    for (const junk of [
      "",
      "v1",
      "v1..",
      `v2.${payload}.${sig}`,
      `${token}.x`,
      "v1.a b.c",
      "x".repeat(5000),
    ]) {
      expect(verifyCapability(key, junk, 0)).toEqual({ ok: false, problem: "malformed" });
    }
  });

  it("refuses every other spelling of the signature, also one that decodes to the same bytes", () => {
    const token = signCapability(key, capability);
    const last = token.at(-1) as string;
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const sameBytes = [...alphabet].filter(
      (c) =>
        c !== last &&
        Buffer.from(`${token.split(".")[2]?.slice(0, -1)}${c}`, "base64url").equals(
          Buffer.from(token.split(".")[2] as string, "base64url"),
        ),
    );
    expect(sameBytes.length).toBeGreaterThan(0);
    for (const c of sameBytes) {
      expect(verifyCapability(key, `${token.slice(0, -1)}${c}`, 0)).toEqual({
        ok: false,
        problem: "bad_signature",
      });
    }
  });

  it("a signed payload that is not a capability is refused", () => {
    const payload = Buffer.from(JSON.stringify({ v: 1, s: "x" })).toString("base64url");
    const sig = createHmac("sha256", key).update(`v1.${payload}`).digest("base64url");
    expect(verifyCapability(key, `v1.${payload}.${sig}`, 0)).toEqual({ ok: false, problem: "bad_payload" });
  });
});
