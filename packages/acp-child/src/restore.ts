// Child-side restore decisions (RESTORE-SPEC steps 2 and 3, and continue's refusal), as pure functions of
// what the session knows. The switch is checked first so that with it off nothing restore-specific runs.
import {
  type Content,
  classifySessionTail,
  historyFromRecords,
  lastHistoryContentFromRecords,
  restorableAskUserQuestionCallIds,
  type TranscriptRecord,
} from "@qwen-daemon/core";
import type { ContinueDecision } from "@qwen-daemon/core/protocol";

export interface RestoreInputs {
  /** `--restore-ask-user-question` (with `--acp`). */
  restoreSwitch: boolean;
  /** The load/resume request carried `qwen.daemon.suppressRestoreAskUserQuestion: true`. */
  suppress: boolean;
}

/**
 * Dangling calls replay must leave in progress: the restorable question batch. Taken from the live chat's
 * last entry when there is a chat, else from the records (cold replay before any chat exists).
 */
export function replaySkipIds(
  inputs: RestoreInputs & { chatLastEntry?: () => Content | undefined; records: readonly TranscriptRecord[] },
): ReadonlySet<string> | undefined {
  if (!inputs.restoreSwitch || inputs.suppress) return undefined;
  const last = inputs.chatLastEntry ? inputs.chatLastEntry() : lastHistoryContentFromRecords(inputs.records);
  return restorableAskUserQuestionCallIds(last);
}

/** Step 3: the load/resume response hints the daemon to send a restore prompt. */
export function shouldHintRestore(
  inputs: RestoreInputs & { promptActive: boolean; restorable: () => boolean },
): boolean {
  return inputs.restoreSwitch && !inputs.suppress && !inputs.promptActive && inputs.restorable();
}

/**
 * The `qwen/control/session/continue` pre-check (the reference's semantics: it decides, the daemon then
 * runs the continuation as a tracked prompt). A trailing restorable question is never "continued" while
 * the switch is on: continue would answer it with a synthetic failure, the very loss restore prevents.
 * The tail is classified from the persisted history (before orphan repair), as the continuation will be.
 */
export function continueDecision(inputs: {
  restoreSwitch: boolean;
  restorable: () => boolean;
  promptActive: boolean;
  records: readonly TranscriptRecord[];
}): ContinueDecision {
  if (inputs.restoreSwitch && inputs.restorable()) return { accepted: false, interruption: "none" };
  const tail = classifySessionTail(historyFromRecords(inputs.records));
  if (tail.kind !== "interrupted_prompt" && tail.kind !== "interrupted_turn") {
    return { accepted: false, interruption: "none" };
  }
  return { accepted: !inputs.promptActive, interruption: tail.kind };
}
