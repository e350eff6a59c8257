// Child-side restore decisions (docs/restore.md "How a restore runs", steps 2 and 3, and continue's refusal), as pure functions of
// what the session knows. The switch is checked first so that with it off nothing restore-specific runs.
import {
  type Content,
  classifySessionTail,
  historyFromRecords,
  lastHistoryContentFromRecords,
  restorableAskUserQuestionCallIds,
  type TranscriptRecord,
} from "@qwen-daemon/core";
import {
  type ContinueDecision,
  type Meta,
  RESTORE_ASK_USER_QUESTION_META_KEY,
  RESTORE_PENDING_APPROVALS_META_KEY,
  type RestoreKindName,
} from "@qwen-daemon/core/protocol";

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

/** What a load/resume request says the daemon will refuse: the question restore, the approvals restore. */
export type Suppress = Record<RestoreKindName, boolean>;

/**
 * Dangling calls replay must leave in progress for an approvals restore (`--restore-pending-approvals`): the
 * calls it will ask again. The session is live by then (load/resume open it before the replay).
 */
export function approvalSkipIds(inputs: {
  restoreSwitch: boolean;
  suppress: boolean;
  restorable: () => { functionCalls: { id?: string }[] } | undefined;
}): ReadonlySet<string> | undefined {
  if (!inputs.restoreSwitch || inputs.suppress) return undefined;
  const calls = inputs.restorable()?.functionCalls;
  return calls === undefined ? undefined : new Set(calls.flatMap((c) => (c.id ? [c.id] : [])));
}

/** Both sets in one (undefined when neither has anything). */
export function unionOf(...sets: (ReadonlySet<string> | undefined)[]): ReadonlySet<string> | undefined {
  const present = sets.filter((s): s is ReadonlySet<string> => s !== undefined && s.size > 0);
  if (present.length === 0) return undefined;
  return present.length === 1 ? present[0] : new Set(present.flatMap((s) => [...s]));
}

/** Step 3: the load/resume response hints the daemon to send a restore prompt. */
export function shouldHintRestore(
  inputs: RestoreInputs & { promptActive: boolean; restorable: () => boolean },
): boolean {
  return inputs.restoreSwitch && !inputs.suppress && !inputs.promptActive && inputs.restorable();
}

/**
 * The load/resume response's `_meta`: the question hint, or the approvals hint (a batch holds one or the other:
 * a batch of questions only is the question restore's, one with an approval the approvals restore's). A batch
 * whose answers the model never saw (`answeredTail`, history/restore-tail.ts) is hinted the same way, under the
 * switch of its answers, so the daemon admits the restore that lets its turn go on.
 */
export function restoreHintMeta(inputs: {
  switches: { question: boolean; approvals: boolean };
  suppress: Suppress;
  promptActive: boolean;
  restorableQuestion: () => boolean;
  restorableApprovals: () => boolean;
  answeredTail?: () => "question" | "approvals" | undefined;
}): Meta | undefined {
  const { switches, suppress, promptActive } = inputs;
  const hint = (restoreSwitch: boolean, suppressed: boolean, restorable: () => boolean) =>
    shouldHintRestore({ restoreSwitch, suppress: suppressed, promptActive, restorable });
  let answered: "question" | "approvals" | undefined | null = null;
  const answeredTail = () => {
    if (answered === null) answered = inputs.answeredTail?.();
    return answered;
  };
  const question = () => inputs.restorableQuestion() || answeredTail() === "question";
  const approvals = () => inputs.restorableApprovals() || answeredTail() === "approvals";
  if (hint(switches.question, suppress.question, question))
    return { [RESTORE_ASK_USER_QUESTION_META_KEY]: true };
  if (hint(switches.approvals, suppress.approvals, approvals))
    return { [RESTORE_PENDING_APPROVALS_META_KEY]: true };
  return undefined;
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
