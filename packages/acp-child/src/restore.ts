// Child-side restore decisions (docs/restore.md "How a restore runs", steps 2 and 3, and continue's refusal), as pure functions of
// what the session knows. The switch is checked first so that with it off nothing restore-specific runs.
import { classifySessionTail, historyFromRecords, type TranscriptRecord } from "@qwen-daemon/core";
import {
  type ContinueDecision,
  type Meta,
  RESTORE_KIND_NAMES,
  type RestoreKindName,
  type RestoreKindSwitches,
  RestoreKinds,
  type RestoreSwitches,
} from "@qwen-daemon/core/protocol";

export interface RestoreInputs {
  /** `--restore-ask-user-question` (with `--acp`). */
  restoreSwitch: boolean;
  /** The load/resume request carried `qwen.daemon.suppressRestoreAskUserQuestion: true`. */
  suppress: boolean;
}

/** What a load/resume request says the daemon will refuse, per restore kind (each has its own suppress key). */
export type Suppress = RestoreKindSwitches;

/** The agent's switches per kind, from options that name each by its row's `switch`. */
export function kindSwitchesOf(options: Partial<RestoreSwitches>): RestoreKindSwitches {
  const switches = {} as RestoreKindSwitches;
  for (const kind of RESTORE_KIND_NAMES) switches[kind] = options[RestoreKinds[kind].switch] === true;
  return switches;
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
 * The restore kind a load/resume answer hints (step 3), in the table's order: the first whose switch is on, not
 * suppressed, with no prompt running, and that has calls to ask again (a batch holds one kind or the other: a
 * batch of questions only is the question restore's, one with an approval the approvals restore's). A batch
 * whose answers the model never saw (`answeredTail`, history/restore-tail.ts) is hinted the same way, under the
 * switch of its answers, so the daemon admits the restore that lets its turn go on.
 */
export function restoreToHint(inputs: {
  switches: RestoreKindSwitches;
  suppress: Suppress;
  promptActive: boolean;
  restorable: (kind: RestoreKindName) => boolean;
  answeredTail?: () => RestoreKindName | undefined;
}): RestoreKindName | undefined {
  let answered: RestoreKindName | undefined | null = null;
  const answeredTail = () => {
    if (answered === null) answered = inputs.answeredTail?.();
    return answered;
  };
  return RESTORE_KIND_NAMES.find((kind) =>
    shouldHintRestore({
      restoreSwitch: inputs.switches[kind],
      suppress: inputs.suppress[kind],
      promptActive: inputs.promptActive,
      restorable: () => inputs.restorable(kind) || answeredTail() === kind,
    }),
  );
}

/** The load/resume response's `_meta`: the hint key of {@link restoreToHint}'s kind, or undefined. */
export function restoreHintMeta(inputs: Parameters<typeof restoreToHint>[0]): Meta | undefined {
  const kind = restoreToHint(inputs);
  return kind === undefined ? undefined : { [RestoreKinds[kind].hintMetaKey]: true };
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
