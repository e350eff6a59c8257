// Child-side restore decisions (docs/restore.md "How a restore runs", steps 2 and 3, and continue's refusal), as pure functions of
// what the session knows. The switch is checked first so that with it off nothing restore-specific runs.
import {
  classifySessionTail,
  type FunctionCall,
  historyFromRecords,
  type TranscriptRecord,
} from "@qwen-daemon/core";
import {
  type ContinueDecision,
  type Meta,
  metaFlag,
  type RestoreKind,
  type RestoreKindName,
  type RestoreKindSwitches,
  RestoreKinds,
} from "@qwen-daemon/core/protocol";

export interface RestoreInputs {
  /** `--restore-ask-user-question` (with `--acp`). */
  restoreSwitch: boolean;
  /** The load/resume request carried `qwen.daemon.suppressRestoreAskUserQuestion: true`. */
  suppress: boolean;
}

/** What a load/resume request says the daemon will refuse, per restore kind (each has its own suppress key). */
export type Suppress<K extends string = RestoreKindName> = Readonly<Record<K, boolean>>;

/** The rows the generic functions below read: by default the contract's table; a test may pass more. */
type KindKeys<K extends string> = { readonly [P in K]: Pick<RestoreKind, "hintMetaKey" | "suppressMetaKey"> };

/** The ids of the calls a restore would ask again (`AgentSession.restorable(kind)`), or undefined. */
export function restorableCallIds(
  restorable: { functionCalls: readonly FunctionCall[] } | undefined,
): ReadonlySet<string> | undefined {
  return restorable === undefined
    ? undefined
    : new Set(restorable.functionCalls.flatMap((c) => (c.id ? [c.id] : [])));
}

/** Both sets in one (undefined when neither has anything). */
export function unionOf(...sets: (ReadonlySet<string> | undefined)[]): ReadonlySet<string> | undefined {
  const present = sets.filter((s): s is ReadonlySet<string> => s !== undefined && s.size > 0);
  if (present.length === 0) return undefined;
  return present.length === 1 ? present[0] : new Set(present.flatMap((s) => [...s]));
}

/** What a load/resume request's `_meta` says the daemon will refuse: each kind's suppress key. */
export function suppressOf(meta: Meta | null | undefined): Suppress {
  return suppressIn(RestoreKinds, meta);
}

/** {@link suppressOf} over the rows `table`. */
export function suppressIn<K extends string>(table: KindKeys<K>, meta: Meta | null | undefined): Suppress<K> {
  const suppress = {} as Record<K, boolean>;
  for (const kind of Object.keys(table) as K[]) suppress[kind] = metaFlag(meta, table[kind].suppressMetaKey);
  return suppress;
}

/** The kind a prompt's `_meta` asks to restore (the daemon's hint key), meaningful only with its switch on. */
export function restorePromptKind(
  switches: RestoreKindSwitches,
  meta: Meta | null | undefined,
): RestoreKindName | undefined {
  return restorePromptKindIn(RestoreKinds, switches, meta);
}

/** {@link restorePromptKind} over the rows `table`. */
export function restorePromptKindIn<K extends string>(
  table: KindKeys<K>,
  switches: Readonly<Record<K, boolean>>,
  meta: Meta | null | undefined,
): K | undefined {
  return (Object.keys(table) as K[]).find(
    (kind) => switches[kind] && metaFlag(meta, table[kind].hintMetaKey),
  );
}

/** Step 3: the load/resume response hints the daemon to send a restore prompt. */
export function shouldHintRestore(
  inputs: RestoreInputs & { promptActive: boolean; restorable: () => boolean },
): boolean {
  return inputs.restoreSwitch && !inputs.suppress && !inputs.promptActive && inputs.restorable();
}

/** What the hint of a load/resume answer is decided from. */
export interface HintInputs<K extends string = RestoreKindName> {
  switches: Readonly<Record<K, boolean>>;
  suppress: Suppress<K>;
  promptActive: boolean;
  restorable: (kind: K) => boolean;
  answeredTail?: () => K | undefined;
}

/**
 * The restore kind a load/resume answer hints (step 3), in the table's order: the first whose switch is on, not
 * suppressed, with no prompt running, and that has calls to ask again (a batch is one kind's at most: a
 * batch of questions only is the question restore's, one with an approval the approvals restore's). A batch
 * whose answers the model never saw (`answeredTail`, history/restore-tail.ts) is hinted the same way, under the
 * switch of its answers, so the daemon admits the restore that lets its turn go on.
 */
export function restoreToHint(inputs: HintInputs): RestoreKindName | undefined {
  return restoreToHintIn(RestoreKinds, inputs);
}

/** {@link restoreToHint} over the rows `table`. */
export function restoreToHintIn<K extends string>(table: KindKeys<K>, inputs: HintInputs<K>): K | undefined {
  let answered: K | undefined | null = null;
  const answeredTail = () => {
    if (answered === null) answered = inputs.answeredTail?.();
    return answered;
  };
  return (Object.keys(table) as K[]).find((kind) =>
    shouldHintRestore({
      restoreSwitch: inputs.switches[kind],
      suppress: inputs.suppress[kind],
      promptActive: inputs.promptActive,
      restorable: () => inputs.restorable(kind) || answeredTail() === kind,
    }),
  );
}

/** The load/resume response's `_meta`: the hint key of {@link restoreToHint}'s kind, or undefined. */
export function restoreHintMeta(inputs: HintInputs): Meta | undefined {
  return restoreHintMetaIn(RestoreKinds, inputs);
}

/** {@link restoreHintMeta} over the rows `table`. */
export function restoreHintMetaIn<K extends string>(
  table: KindKeys<K>,
  inputs: HintInputs<K>,
): Meta | undefined {
  const kind = restoreToHintIn(table, inputs);
  return kind === undefined ? undefined : { [table[kind].hintMetaKey]: true };
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
