// Which calls each restore kind of the contract's table (protocol/restore-kinds.ts) would ask again, one
// eligibility function per kind, and the kind-blind rules built on them: a kind asks nothing with its switch
// off, a batch is one kind's (the first in the table's order that has calls for it), and a load leaves that
// kind's calls open for its restore unless the host suppressed it. The AgentSession asks `restorable(kind)` and
// runs `restore(kind)` through these, so a new kind is its row in the table plus its entry here (the compiler
// asks for one per row). The generic functions take the table as a parameter, so a test can add a kind. Pure.
import type { Content, FunctionCall } from "../content.js";
import { findRestorableAskUserQuestion } from "../history/ask-user-question-restore.js";
import type { RestoreKindName } from "../protocol/restore-kinds.js";
import type { TranscriptRecord } from "../transcript/records.js";
import { pendingApprovalsOf, restorableApprovalCalls } from "./pending-approvals.js";

/** What an eligibility function looks at: the session's history, its records and every kind's switch. */
export interface RestoreScan<K extends string = RestoreKindName> {
  /** The history as the chat has it (not cloned: read only). */
  readonly history: readonly Content[];
  readonly records: readonly TranscriptRecord[];
  /** Every kind's switch (a kind's rule may depend on another's: approvals take questions along). */
  readonly switches: Readonly<Record<K, boolean>>;
}

/**
 * The calls of the session's trailing batch this kind would ask again, or undefined. Called only with the
 * kind's own switch on. Fail-closed: anything unexpected means undefined, and the calls go through ordinary
 * orphan repair. Kinds must not overlap: a batch is at most one kind's.
 */
export type RestoreEligibility<K extends string = RestoreKindName> = (
  scan: RestoreScan<K>,
) => readonly FunctionCall[] | undefined;

export type RestoreEligibilityTable<K extends string = RestoreKindName> = {
  readonly [P in K]: RestoreEligibility<K>;
};

/** One eligibility function per row of the restore-kind table, in the table's order. */
export const RESTORE_ELIGIBILITY: RestoreEligibilityTable = {
  // A trailing model entry whose every call is a well-formed ask_user_question.
  question: ({ history }) => findRestorableAskUserQuestion(history.at(-1))?.functionCalls,
  // A trailing batch with an approval no one gave and whose tools never started (questions with the
  // question switch).
  approvals: ({ history, records, switches }) =>
    restorableApprovalCalls(pendingApprovalsOf(history, records, switches)),
};

/** What a kind would ask again now: its calls, or undefined with its switch off or nothing to ask. */
export function restorableCalls<K extends string>(
  table: RestoreEligibilityTable<K>,
  kind: K,
  scan: RestoreScan<K>,
): FunctionCall[] | undefined {
  if (!scan.switches[kind]) return undefined;
  const calls = table[kind](scan);
  return calls !== undefined && calls.length > 0 ? [...calls] : undefined;
}

/** The kind the trailing batch is restorable as (the first in the table's order), with its calls. */
export function restorableKind<K extends string>(
  table: RestoreEligibilityTable<K>,
  scan: RestoreScan<K>,
): { kind: K; calls: FunctionCall[] } | undefined {
  for (const kind of Object.keys(table) as K[]) {
    const calls = restorableCalls(table, kind, scan);
    if (calls !== undefined) return { kind, calls };
  }
  return undefined;
}

/**
 * What a load leaves open: the restorable kind's call ids, unless the host suppressed that kind's preservation
 * (nobody to ask, a fork), in which case the load repairs them like any other dangling call.
 */
export function preservedAtLoad<K extends string>(
  table: RestoreEligibilityTable<K>,
  scan: RestoreScan<K>,
  preserve: (kind: K) => boolean,
): { found: { kind: K; calls: FunctionCall[] } | undefined; preserveCallIds: Set<string> | undefined } {
  const found = restorableKind(table, scan);
  const preserveCallIds = found !== undefined && preserve(found.kind) ? callIdsOf(found.calls) : undefined;
  return { found, preserveCallIds };
}

/** The ids of `calls` (every restorable call has one; the filter only narrows the type). */
export function callIdsOf(calls: readonly FunctionCall[]): Set<string> {
  return new Set(calls.flatMap((call) => (call.id ? [call.id] : [])));
}
