import { describe, expect, it } from "vitest";
import { acpChildExtraArgs } from "./acp-child-extra-args.js";

describe("acpChildExtraArgs", () => {
  it("is undefined when nothing is forwarded", () => {
    expect(acpChildExtraArgs({})).toBeUndefined();
    expect(acpChildExtraArgs({ experimentalLsp: false, restoreAskUserQuestion: false })).toBeUndefined();
  });
  it("forwards each flag alone", () => {
    expect(acpChildExtraArgs({ experimentalLsp: true })).toEqual(["--experimental-lsp"]);
    expect(acpChildExtraArgs({ restoreAskUserQuestion: true })).toEqual(["--restore-ask-user-question"]);
  });
  it("keeps the documented order: lsp first, restore second", () => {
    expect(acpChildExtraArgs({ restoreAskUserQuestion: true, experimentalLsp: true })).toEqual([
      "--experimental-lsp",
      "--restore-ask-user-question",
    ]);
  });
  it("forwards the approvals switch after the existing flags", () => {
    expect(acpChildExtraArgs({ restorePendingApprovals: true })).toEqual(["--restore-pending-approvals"]);
    expect(
      acpChildExtraArgs({
        restorePendingApprovals: true,
        restoreAskUserQuestion: true,
        experimentalLsp: true,
      }),
    ).toEqual(["--experimental-lsp", "--restore-ask-user-question", "--restore-pending-approvals"]);
    expect(acpChildExtraArgs({ restorePendingApprovals: false })).toBeUndefined();
  });
});
