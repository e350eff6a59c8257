import { describe, expect, it } from "vitest";
import { parseServeArgs } from "./serve-args.js";
import { SERVE_DEFAULTS } from "./serve-flags.js";

const ok = (argv: string[], env: Record<string, string> = {}) => {
  const r = parseServeArgs(argv, env);
  if (r.kind !== "ok") throw new Error(`expected ok, got ${JSON.stringify(r)}`);
  return r.flags;
};

describe("parseServeArgs", () => {
  it("gives the reference defaults with no flags", () => {
    expect(ok([])).toEqual({ ...SERVE_DEFAULTS, allowOrigins: [] });
  });
  it("reads spaced, inline and negated forms", () => {
    const f = ok(["--port", "0", "--hostname=0.0.0.0", "--no-web", "--restore-ask-user-question"]);
    expect(f.port).toBe(0);
    expect(f.hostname).toBe("0.0.0.0");
    expect(f.web).toBe(false);
    expect(f.restoreAskUserQuestion).toBe(true);
    expect(f.restorePendingApprovals).toBe(false);
    expect(ok(["--restore-pending-approvals"]).restorePendingApprovals).toBe(true);
  });
  it("collects repeated list flags", () => {
    expect(ok(["--allow-origin", "http://a", "--allow-origin=http://b"]).allowOrigins).toEqual([
      "http://a",
      "http://b",
    ]);
  });
  it("rejects bad values with a message naming the flag", () => {
    expect(parseServeArgs(["--port", "abc"], {})).toEqual({
      kind: "error",
      message: '--port must be an integer, got "abc".',
    });
    expect(parseServeArgs(["--port", "70000"], {})).toMatchObject({ kind: "error" });
    expect(parseServeArgs(["--max-sessions", "-1"], {})).toMatchObject({ kind: "error" });
    expect(parseServeArgs(["--permission-policy", "anyone"], {})).toMatchObject({
      kind: "error",
      message: expect.stringContaining("first-responder"),
    });
    expect(parseServeArgs(["--token"], {})).toEqual({ kind: "error", message: "--token needs a value." });
  });
  it("falls back to the full parser on help and unknown flags", () => {
    expect(parseServeArgs(["--help"], {})).toEqual({ kind: "fallback" });
    expect(parseServeArgs(["--frobnicate"], {})).toEqual({ kind: "fallback" });
    expect(parseServeArgs(["positional"], {})).toEqual({ kind: "fallback" });
    expect(parseServeArgs(["--no-port"], {})).toEqual({ kind: "fallback" });
  });
  it("uses env fallbacks, flags win over env", () => {
    const env = {
      QWEN_SERVER_TOKEN: "t0k",
      QWEN_SERVE_PORT: "5000",
      QWEN_SERVE_ALLOW_ORIGIN: "http://a, http://b",
    };
    const f = ok([], env);
    expect(f.token).toBe("t0k");
    expect(f.port).toBe(5000);
    expect(f.allowOrigins).toEqual(["http://a", "http://b"]);
    expect(ok(["--port", "1"], env).port).toBe(1);
    expect(parseServeArgs([], { QWEN_SERVE_PORT: "x" })).toEqual({
      kind: "error",
      message: 'QWEN_SERVE_PORT must be an integer, got "x".',
    });
  });
  it("never turns restore on from the environment (the switch is command-line only)", () => {
    expect(ok([], { QWEN_SERVE_RESTORE_ASK_USER_QUESTION: "true" }).restoreAskUserQuestion).toBe(false);
    expect(ok(["--restore-ask-user-question"]).restoreAskUserQuestion).toBe(true);
  });
  it("reads the ACP command from QWEN_ACP_COMMAND", () => {
    expect(ok([], { QWEN_ACP_COMMAND: '["node","x.js"]' }).acpCommand).toBe('["node","x.js"]');
  });
});
