import { describe, expect, it } from "vitest";
import {
  effectiveRestoreAskUserQuestion,
  effectiveRestorePendingApprovals,
  parseFastAcpArgs,
} from "./acp-args.js";

describe("restore switch gating", () => {
  it("is on only with --acp and the flag", () => {
    expect(effectiveRestoreAskUserQuestion({ acp: true, restoreAskUserQuestion: true })).toBe(true);
    expect(effectiveRestoreAskUserQuestion({ acp: false, restoreAskUserQuestion: true })).toBe(false);
    expect(effectiveRestoreAskUserQuestion({ acp: true, restoreAskUserQuestion: false })).toBe(false);
  });
  it("gates the approvals switch the same way", () => {
    expect(effectiveRestorePendingApprovals({ acp: true, restorePendingApprovals: true })).toBe(true);
    expect(effectiveRestorePendingApprovals({ acp: false, restorePendingApprovals: true })).toBe(false);
    expect(effectiveRestorePendingApprovals({ acp: true, restorePendingApprovals: false })).toBe(false);
  });
});

describe("parseFastAcpArgs", () => {
  it("recognises the forwarded flags in any order", () => {
    expect(parseFastAcpArgs(["--acp", "--experimental-lsp", "--restore-ask-user-question"])).toEqual({
      acp: true,
      restoreAskUserQuestion: true,
      restorePendingApprovals: false,
      experimentalLsp: true,
    });
    expect(parseFastAcpArgs(["--restore-pending-approvals", "--acp"])).toEqual({
      acp: true,
      restoreAskUserQuestion: false,
      restorePendingApprovals: true,
      experimentalLsp: false,
    });
    expect(parseFastAcpArgs(["--restore-ask-user-question", "--acp"])?.restoreAskUserQuestion).toBe(true);
    expect(parseFastAcpArgs(["--acp"])).toEqual({
      acp: true,
      restoreAskUserQuestion: false,
      restorePendingApprovals: false,
      experimentalLsp: false,
    });
  });
  it("leaves everything else to the full parser", () => {
    expect(parseFastAcpArgs(["--restore-ask-user-question"])).toBeUndefined();
    expect(parseFastAcpArgs(["--restore-pending-approvals"])).toBeUndefined();
    expect(parseFastAcpArgs(["--acp", "--help"])).toBeUndefined();
    expect(parseFastAcpArgs(["--acp", "--model", "x"])).toBeUndefined();
    expect(parseFastAcpArgs([])).toBeUndefined();
  });
});
