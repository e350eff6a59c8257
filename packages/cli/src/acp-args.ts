// Gating of the child-side switches (docs/restore.md "The switches"): a restore switch only means something
// with --acp, because a plain terminal run has no channel to re-ask on and skipping repair would wedge the
// session. The switches and their flags are the rows of the contract's restore-kind table.
import {
  effectiveRestoreSwitches,
  RESTORE_FLAGS,
  type RestoreSwitches,
  restoreSwitchesFromArgv,
} from "@qwen-daemon/core/restore-kinds";

export interface AgentModeFlags extends RestoreSwitches {
  acp: boolean;
  experimentalLsp: boolean;
  /** `--storage <url>` (docs/storage.md); a daemon passes its own through the environment instead. */
  storage?: string;
}

export function effectiveRestoreAskUserQuestion(
  flags: Pick<AgentModeFlags, "acp" | "restoreAskUserQuestion">,
): boolean {
  return effectiveRestoreSwitches(flags.acp, flags).restoreAskUserQuestion;
}

/** Same gating as the question switch: only an ACP run has a channel to ask an approval again on. */
export function effectiveRestorePendingApprovals(
  flags: Pick<AgentModeFlags, "acp" | "restorePendingApprovals">,
): boolean {
  return effectiveRestoreSwitches(flags.acp, flags).restorePendingApprovals;
}

const ACP_FLAGS = new Set(["--acp", ...RESTORE_FLAGS, "--experimental-lsp"]);

/**
 * Fast-path recogniser for `qwen --acp [forwarded flags]`: returns the flags when argv holds exactly those,
 * else undefined (the full parser then handles it).
 */
export function parseFastAcpArgs(argv: readonly string[]): AgentModeFlags | undefined {
  if (!argv.includes("--acp")) return undefined;
  if (!argv.every((a) => ACP_FLAGS.has(a))) return undefined;
  return {
    acp: true,
    ...restoreSwitchesFromArgv(argv),
    experimentalLsp: argv.includes("--experimental-lsp"),
  };
}
