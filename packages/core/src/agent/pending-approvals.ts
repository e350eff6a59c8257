// The session's side of `--restore-pending-approvals` (history/pending-approval-restore.ts decides): which
// calls of the trailing batch a restore asks again, and the results load writes for the calls that had started.
// Pure: the session writes what these return.
import type { Config } from "../config.js";
import type { Content, FunctionCall } from "../content.js";
import {
  findRestorablePendingApprovals,
  type RestorablePendingApprovals,
  toolStartedResultUnknownText,
  toolStartsFromRecords,
} from "../history/pending-approval-restore.js";
import { RESTORE_KIND_NAMES, type RestoreKindSwitches } from "../protocol/restore-kinds.js";
import type { ToolCallResult, TranscriptRecord } from "../transcript/records.js";

/** The restore switches as a session's Config has them, per kind. */
export function switchesOf(config: Config): RestoreKindSwitches {
  const switches = {} as RestoreKindSwitches;
  for (const kind of RESTORE_KIND_NAMES) switches[kind] = config.getRestore(kind);
  return switches;
}

/**
 * The trailing batch's pending approvals, from the history's last entries and the records' start marks; undefined
 * with the switch off or when nothing qualifies.
 */
export function pendingApprovalsOf(
  history: readonly Content[],
  records: readonly TranscriptRecord[],
  switches: RestoreKindSwitches,
): RestorablePendingApprovals | undefined {
  if (!switches.approvals) return undefined;
  return findRestorablePendingApprovals(history.slice(-2), {
    toolStarts: toolStartsFromRecords(records),
    includeQuestions: switches.question,
  });
}

/**
 * The calls a restore prompt asks again: only once every call that had started is closed (load closes them
 * first), so a restore never runs next to a call whose fate is unknown.
 */
export function restorableApprovalCalls(
  found: RestorablePendingApprovals | undefined,
): FunctionCall[] | undefined {
  if (found === undefined || found.closedAsStarted.length > 0 || found.reAsk.length === 0) return undefined;
  return found.reAsk;
}

/** One tool result per call that had started: never run again, its outcome reported as unknown. */
export function startedCallResults(
  calls: readonly FunctionCall[],
): { message: Content; result: ToolCallResult }[] {
  return calls.flatMap((call) => {
    if (!call.id) return [];
    const error = toolStartedResultUnknownText(call.name);
    return [
      {
        message: {
          role: "user" as const,
          parts: [{ functionResponse: { id: call.id, name: call.name, response: { error } } }],
        },
        result: { callId: call.id, status: "error" as const, resultDisplay: error },
      },
    ];
  });
}
