import { PRIVATE_PARENT_CAPABILITY_META_KEY } from "@qwen-daemon/core/protocol";
import { describe, expect, it } from "vitest";
import {
  GUARD_DENIED_TEXT,
  GUARD_FAILED_TEXT,
  interpretGuardReply,
  PrivateParentGate,
  readPrivateParentEnv,
  scrubPrivateParentEnv,
} from "./external-tool-guard.js";

const TOKEN = "tok-1234567890";
const meta = (capability: unknown) => ({ [PRIVATE_PARENT_CAPABILITY_META_KEY]: capability });

describe("readPrivateParentEnv / scrubPrivateParentEnv", () => {
  it("reads the token and the guard switch; only the exact value requires the guard", () => {
    expect(
      readPrivateParentEnv({
        QWEN_CODE_PRIVATE_ACP_CAPABILITY: TOKEN,
        QWEN_CODE_PRIVATE_EXTERNAL_TOOL_GUARD: "required-v1",
      }),
    ).toEqual({ capability: TOKEN, guardRequired: true });
    expect(readPrivateParentEnv({ QWEN_CODE_PRIVATE_EXTERNAL_TOOL_GUARD: "required-v2" })).toEqual({
      capability: undefined,
      guardRequired: false,
    });
    expect(readPrivateParentEnv({ QWEN_CODE_PRIVATE_ACP_CAPABILITY: "" }).capability).toBeUndefined();
  });

  it("deletes every private variable and nothing else", () => {
    const env: Record<string, string | undefined> = {
      QWEN_CODE_PRIVATE_ACP_CAPABILITY: TOKEN,
      QWEN_CODE_PRIVATE_EXTERNAL_TOOL_GUARD: "required-v1",
      QWEN_CODE_PRIVATE_EXTERNAL_TOOL_GUARD_PROVIDER: "attached-v1",
      QWEN_CODE_EXTERNAL_TOOL_GUARD_TOKEN: "t",
      OPENAI_API_KEY: "sk",
    };
    scrubPrivateParentEnv(env);
    expect(env).toEqual({ OPENAI_API_KEY: "sk" });
  });
});

describe("PrivateParentGate", () => {
  it("acks the guard to the parent that presents the token", () => {
    const gate = new PrivateParentGate({ capability: TOKEN, guardRequired: true });
    expect(gate.guardActive).toBe(false);
    expect(gate.admit(meta(TOKEN))).toEqual({ kind: "admitted", guardReady: true });
    expect(gate.guardActive).toBe(true);
    // A later initialize is not re-checked (as in the reference).
    expect(gate.admit(undefined)).toEqual({ kind: "admitted", guardReady: true });
  });

  it("trusts the token without the guard switch, and then promises nothing", () => {
    const gate = new PrivateParentGate({ capability: TOKEN, guardRequired: false });
    expect(gate.admit(meta(TOKEN))).toEqual({ kind: "admitted", guardReady: false });
    expect(gate.guardActive).toBe(false);
  });

  it.each([
    ["a wrong token", meta("tok-1234567891")],
    ["a shorter token", meta("tok")],
    ["a non-string token", meta(123)],
    ["no token", {}],
    ["no _meta", undefined],
  ])("refuses %s, and keeps refusing on this connection", (_what, m) => {
    const gate = new PrivateParentGate({ capability: TOKEN, guardRequired: true });
    expect(gate.admit(m)).toEqual({ kind: "rejected" });
    expect(gate.admit(meta(TOKEN))).toEqual({ kind: "rejected" });
    expect(gate.guardActive).toBe(false);
  });

  it("is an ordinary client without an expected token, whatever it sends or the guard switch says", () => {
    const gate = new PrivateParentGate({ capability: undefined, guardRequired: true });
    expect(gate.admit(meta("anything"))).toEqual({ kind: "admitted", guardReady: false });
    expect(gate.guardActive).toBe(false);
  });
});

describe("interpretGuardReply", () => {
  it.each([
    [{ allowed: true }, { allowed: true }],
    [
      { allowed: false, reason: "Not in a worktree." },
      { allowed: false, reason: "Not in a worktree." },
    ],
    [{ allowed: false }, { allowed: false, reason: GUARD_DENIED_TEXT }],
  ])("reads %j", (raw, decision) => {
    expect(interpretGuardReply(raw)).toEqual(decision);
  });

  it.each([
    ["a non-object", "yes"],
    ["null", null],
    ["no allowed", {}],
    ["a non-boolean allowed", { allowed: "true" }],
    ["an extra key", { allowed: true, extra: 1 }],
    ["an allow with a reason", { allowed: true, reason: "x" }],
    ["a blank reason", { allowed: false, reason: "  " }],
    ["a control character", { allowed: false, reason: "a\nb" }],
    ["a reason over 500 chars", { allowed: false, reason: "x".repeat(501) }],
  ])("fails closed on %s", (_what, raw) => {
    expect(interpretGuardReply(raw)).toEqual({ allowed: false, reason: GUARD_FAILED_TEXT });
  });
});
