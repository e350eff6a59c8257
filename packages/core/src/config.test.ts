import { describe, expect, it } from "vitest";
import { APPROVAL_MODES, Config, restoreAskUserQuestionEnabled } from "./config.js";
import type { ApprovalMode } from "./tools/tool.js";

describe("Config", () => {
  it("defaults: restore off, preserve off, default approval, no LSP", () => {
    const config = new Config();
    expect(config.getRestoreAskUserQuestion()).toBe(false);
    expect(config.getPreserveRestorableAskUserQuestion()).toBe(false);
    expect(config.approvalMode).toBe("default");
    expect(config.experimentalLsp).toBe(false);
  });

  it("preserve follows restore", () => {
    const config = new Config({ restoreAskUserQuestion: true });
    expect(config.getRestoreAskUserQuestion()).toBe(true);
    expect(config.getPreserveRestorableAskUserQuestion()).toBe(true);
  });

  it("suppression turns only the preserve flag off, for good", () => {
    const config = new Config({ restoreAskUserQuestion: true });
    config.suppressRestorableAskUserQuestionPreservation();
    expect(config.getPreserveRestorableAskUserQuestion()).toBe(false);
    expect(config.getRestoreAskUserQuestion()).toBe(true);
    config.suppressRestorableAskUserQuestionPreservation();
    expect(config.getPreserveRestorableAskUserQuestion()).toBe(false);
  });

  it("each restore kind's preserve flag follows its own switch and is suppressed alone", () => {
    const config = new Config({ restoreAskUserQuestion: true, restorePendingApprovals: true });
    expect([config.getPreserveRestorable("question"), config.getPreserveRestorable("approvals")]).toEqual([
      true,
      true,
    ]);
    config.suppressRestorablePreservation("approvals");
    expect([config.getPreserveRestorable("question"), config.getPreserveRestorable("approvals")]).toEqual([
      true,
      false,
    ]);
    expect(config.getRestorePendingApprovals()).toBe(true);
    config.suppressRestorableAskUserQuestionPreservation();
    expect(config.getPreserveRestorable("question")).toBe(false);
    expect(new Config({ restorePendingApprovals: true }).getPreserveRestorable("question")).toBe(false);
  });

  it("suppression with restore off keeps both off", () => {
    const config = new Config({ restoreAskUserQuestion: false });
    config.suppressRestorableAskUserQuestionPreservation();
    expect(config.getRestoreAskUserQuestion()).toBe(false);
    expect(config.getPreserveRestorableAskUserQuestion()).toBe(false);
  });

  it("only an explicit true turns restore on", () => {
    const loose = { restoreAskUserQuestion: "true" } as unknown as { restoreAskUserQuestion: boolean };
    expect(new Config(loose).getRestoreAskUserQuestion()).toBe(false);
  });

  it("takes and changes the approval mode", () => {
    const config = new Config({ approvalMode: "plan", experimentalLsp: true });
    expect(config.approvalMode).toBe("plan");
    expect(config.experimentalLsp).toBe(true);
    for (const mode of APPROVAL_MODES) {
      config.approvalMode = mode;
      expect(config.approvalMode).toBe(mode);
    }
    expect(APPROVAL_MODES).toEqual(["default", "auto-edit", "yolo", "plan"]);
  });

  it("refuses an unknown approval mode", () => {
    expect(() => new Config({ approvalMode: "always" as ApprovalMode })).toThrow(
      "Unknown approval mode: always",
    );
    const config = new Config({ approvalMode: "yolo" });
    expect(() => {
      config.approvalMode = "autoEdit" as ApprovalMode;
    }).toThrow(RangeError);
    expect(config.approvalMode).toBe("yolo");
  });

  it("keeps separate instances separate", () => {
    const a = new Config({ restoreAskUserQuestion: true });
    const b = new Config({ restoreAskUserQuestion: true });
    a.suppressRestorableAskUserQuestionPreservation();
    expect(b.getPreserveRestorableAskUserQuestion()).toBe(true);
  });
});

describe("restoreAskUserQuestionEnabled", () => {
  it.each([
    [true, true, true],
    [true, false, false],
    [false, true, false],
    [false, false, false],
  ])("acp=%s flag=%s -> %s", (acp, restoreAskUserQuestion, expected) => {
    expect(restoreAskUserQuestionEnabled({ acp, restoreAskUserQuestion })).toBe(expected);
  });
});
