import { describe, expect, it } from "vitest";
import { DAEMON_META_PREFIX } from "./meta.js";
import {
  effectiveRestoreSwitches,
  RESTORE_FLAGS,
  RESTORE_KINDS,
  restoreFlagArgs,
  restoreKindCovering,
  restoreSwitchesFromArgv,
} from "./restore-kinds.js";

describe("the restore-kind table", () => {
  it("keeps the wire names of the reference, in the order the daemon passes them on", () => {
    expect(RESTORE_FLAGS).toEqual(["--restore-ask-user-question", "--restore-pending-approvals"]);
    expect(RESTORE_KINDS.map((k) => [k.hintMetaKey, k.suppressMetaKey])).toEqual([
      ["qwen.daemon.restoreAskUserQuestion", "qwen.daemon.suppressRestoreAskUserQuestion"],
      ["qwen.daemon.restorePendingApprovals", "qwen.daemon.suppressRestorePendingApprovals"],
    ]);
    // The capability features and the log / banner labels clients and operators already see.
    expect(RESTORE_KINDS.map((k) => [k.feature, k.label, k.suppressWithSwitchOff])).toEqual([
      ["restore_ask_user_question", "ask_user_question", true],
      ["restore_pending_approvals", "pending approvals", false],
    ]);
  });

  it("gives every row its own switch, flag and keys, all keys the daemon's own", () => {
    for (const field of ["switch", "flag", "hintMetaKey", "suppressMetaKey", "feature", "label"] as const) {
      const values = RESTORE_KINDS.map((k) => k[field]);
      expect(new Set(values).size).toBe(values.length);
    }
    for (const kind of RESTORE_KINDS) {
      expect(kind.hintMetaKey.startsWith(DAEMON_META_PREFIX)).toBe(true);
      expect(kind.suppressMetaKey.startsWith(DAEMON_META_PREFIX)).toBe(true);
    }
  });

  it("gives every waiting interaction to exactly one kind", () => {
    const covered = RESTORE_KINDS.flatMap((k) => k.covers);
    expect(new Set(covered).size).toBe(covered.length);
    expect(["user_question", "exec", "edit", "mcp"].map((i) => restoreKindCovering(i as never))).toEqual([
      "question",
      "approvals",
      "approvals",
      "approvals",
    ]);
  });

  it("turns switches into flags and back", () => {
    expect(restoreFlagArgs({})).toEqual([]);
    expect(restoreFlagArgs({ restorePendingApprovals: true, restoreAskUserQuestion: true })).toEqual(
      RESTORE_FLAGS,
    );
    expect(restoreFlagArgs({ restoreAskUserQuestion: false, restorePendingApprovals: true })).toEqual([
      "--restore-pending-approvals",
    ]);
    expect(restoreSwitchesFromArgv(["--acp", "--restore-pending-approvals"])).toEqual({
      restoreAskUserQuestion: false,
      restorePendingApprovals: true,
    });
  });

  it("lets a switch take effect only with --acp", () => {
    const on = { restoreAskUserQuestion: true, restorePendingApprovals: true };
    expect(effectiveRestoreSwitches(true, on)).toEqual(on);
    expect(effectiveRestoreSwitches(false, on)).toEqual({
      restoreAskUserQuestion: false,
      restorePendingApprovals: false,
    });
    expect(effectiveRestoreSwitches(true, {})).toEqual({
      restoreAskUserQuestion: false,
      restorePendingApprovals: false,
    });
  });
});
