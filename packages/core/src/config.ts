// Per-process agent configuration. Built once from command-line flags by the entry point and handed to
// the code that needs it (never read from a global).
import {
  effectiveRestoreSwitches,
  RESTORE_KIND_NAMES,
  type RestoreKindName,
  RestoreKinds,
  type RestoreSwitches,
} from "./protocol/restore-kinds.js";
import type { ApprovalMode } from "./tools/tool.js";

export const APPROVAL_MODES: readonly ApprovalMode[] = ["default", "auto-edit", "yolo", "plan"];

/**
 * The restore switches, one per row of the restore-kind table, named by the row's `switch` (docs/restore.md),
 * each false by default: `restoreAskUserQuestion` re-hangs a trailing unanswered ask_user_question on
 * load/resume; `restorePendingApprovals` asks a trailing tool approval again when its tool never started, and
 * closes one that had started as "started, result unknown" instead of failing it.
 */
export interface ConfigOptions extends Partial<RestoreSwitches> {
  /** Default "default". */
  approvalMode?: ApprovalMode;
  /** Default false. */
  experimentalLsp?: boolean;
}

export class Config {
  /** Per restore kind: its switch. */
  readonly #restore: Readonly<Record<RestoreKindName, boolean>>;
  /** Per restore kind: whether a load leaves its restorable calls open; follows the switch until suppressed. */
  readonly #preserve: Record<RestoreKindName, boolean>;
  #approvalMode: ApprovalMode;
  readonly #experimentalLsp: boolean;

  constructor(options: ConfigOptions = {}) {
    // `=== true`: only an explicit true switches restore on (fail-closed for untyped callers).
    const restore = {} as Record<RestoreKindName, boolean>;
    for (const kind of RESTORE_KIND_NAMES) restore[kind] = options[RestoreKinds[kind].switch] === true;
    this.#restore = restore;
    this.#preserve = { ...restore };
    this.#approvalMode = checkedApprovalMode(options.approvalMode ?? "default");
    this.#experimentalLsp = options.experimentalLsp === true;
  }

  getRestoreAskUserQuestion(): boolean {
    return this.getRestore("question");
  }

  getRestorePendingApprovals(): boolean {
    return this.getRestore("approvals");
  }

  /** Whether restore kind `kind`'s switch is on. */
  getRestore(kind: RestoreKindName): boolean {
    return this.#restore[kind];
  }

  /** Whether startChat's orphan repair spares the restorable ids; follows restore until suppressed. */
  getPreserveRestorableAskUserQuestion(): boolean {
    return this.getPreserveRestorable("question");
  }

  /**
   * A load/resume that will not re-hang (no client attached, fork restore) calls this so the history is
   * repaired in step with the replay, which finalizes the question as failed. Restore itself stays on.
   */
  suppressRestorableAskUserQuestionPreservation(): void {
    this.suppressRestorablePreservation("question");
  }

  /**
   * Whether a load leaves the calls restore kind `kind` would ask again open (unrepaired) for that restore:
   * the kind's switch, until {@link suppressRestorablePreservation} turns it off.
   */
  getPreserveRestorable(kind: RestoreKindName): boolean {
    return this.#preserve[kind];
  }

  /**
   * The host will not restore `kind` on this session's load (nobody to ask, a fork): the load then repairs
   * those calls and closes their prompts as it would with the switch off, while the switch itself (and so
   * what the session records, such as tool starts) stays on. For good: a Config serves one session.
   */
  suppressRestorablePreservation(kind: RestoreKindName): void {
    this.#preserve[kind] = false;
  }

  get approvalMode(): ApprovalMode {
    return this.#approvalMode;
  }

  set approvalMode(mode: ApprovalMode) {
    this.#approvalMode = checkedApprovalMode(mode);
  }

  get experimentalLsp(): boolean {
    return this.#experimentalLsp;
  }
}

function checkedApprovalMode(mode: ApprovalMode): ApprovalMode {
  // Modes arrive from flags and ACP requests; an unknown one must not silently widen permissions.
  if (!APPROVAL_MODES.includes(mode)) throw new RangeError(`Unknown approval mode: ${String(mode)}`);
  return mode;
}

/**
 * The child-side question switch: on only for an ACP run (`--acp`) that asked for it. The one gating rule of
 * every restore kind is the table's (effectiveRestoreSwitches); this is its question row, by the seed's name.
 */
export function restoreAskUserQuestionEnabled(argv: {
  acp: boolean;
  restoreAskUserQuestion: boolean;
}): boolean {
  return effectiveRestoreSwitches(argv.acp === true, argv).restoreAskUserQuestion;
}
