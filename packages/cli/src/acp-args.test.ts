import { describe, expect, it } from "vitest";
import { effectiveRestoreAskUserQuestion, parseFastAcpArgs } from "./acp-args.js";

describe("restore switch gating", () => {
  it("is on only with --acp and the flag", () => {
    expect(effectiveRestoreAskUserQuestion({ acp: true, restoreAskUserQuestion: true })).toBe(true);
    expect(effectiveRestoreAskUserQuestion({ acp: false, restoreAskUserQuestion: true })).toBe(false);
    expect(effectiveRestoreAskUserQuestion({ acp: true, restoreAskUserQuestion: false })).toBe(false);
  });
});

describe("parseFastAcpArgs", () => {
  it("recognises the forwarded flags in any order", () => {
    expect(parseFastAcpArgs(["--acp", "--experimental-lsp", "--restore-ask-user-question"])).toEqual({
      acp: true,
      restoreAskUserQuestion: true,
      experimentalLsp: true,
    });
    expect(parseFastAcpArgs(["--restore-ask-user-question", "--acp"])?.restoreAskUserQuestion).toBe(true);
    expect(parseFastAcpArgs(["--acp"])).toEqual({
      acp: true,
      restoreAskUserQuestion: false,
      experimentalLsp: false,
    });
  });
  it("leaves everything else to the full parser", () => {
    expect(parseFastAcpArgs(["--restore-ask-user-question"])).toBeUndefined();
    expect(parseFastAcpArgs(["--acp", "--help"])).toBeUndefined();
    expect(parseFastAcpArgs(["--acp", "--model", "x"])).toBeUndefined();
    expect(parseFastAcpArgs([])).toBeUndefined();
  });
});
