// What a session that is only on disk holds for a person, from its trailing turn alone (the session list's
// `pendingOnDisk`). Pure, and fail-closed like the restore scans it mirrors: a kind is reported only when a
// load by a daemon with the same switches would ask it again, so "waiting for you" never points at a session
// that then asks nothing.
import type { FunctionCall } from "../content.js";
import type { RestoreKindSwitches } from "../protocol/restore-kinds.js";
import type { PendingOnDiskKind } from "../protocol/sessions.js";
import { historyFromRecords } from "../transcript/history.js";
import type { TranscriptRecord } from "../transcript/records.js";
import { findRestorableAskUserQuestion } from "./ask-user-question-restore.js";
import { pendingApprovalsFromRecords } from "./pending-approval-restore.js";

/** The window {@link readTrailingTurn} returns (records of the last model entry and after, and its certainty). */
export interface TrailingWindow {
  records: readonly TranscriptRecord[];
  certain: boolean;
}

/** A call a load would ask a person about again. */
export interface PendingOnDiskCall {
  kind: PendingOnDiskKind;
  /** The call as the model made it (the very object of the record). */
  call: FunctionCall & { id: string };
}

/**
 * The calls waiting in `tail` that a load would ask again, in the model's order; [] when nothing would be
 * asked (or the window is uncertain, or the switches that would ask are off).
 */
export function pendingOnDiskCalls(tail: TrailingWindow, switches: RestoreKindSwitches): PendingOnDiskCall[] {
  if (!tail.certain || (!switches.question && !switches.approvals)) return [];
  // The window is linear (certain), so its history is the end of the session's history, merged as a load merges it.
  const history = historyFromRecords(tail.records);
  if (switches.approvals) {
    const approvals = pendingApprovalCalls(tail.records, switches);
    if (approvals.length > 0) return approvals;
  }
  if (!switches.question) return [];
  const questions = findRestorableAskUserQuestion(history.at(-1));
  // Every call the question scan keeps has an id.
  return (questions?.functionCalls ?? []).map((call) => ({
    kind: "user_question",
    call: call as PendingOnDiskCall["call"],
  }));
}

/**
 * The approval restore's calls (with questions of a mixed batch when the question switch is on too): those it
 * would ask again, never those it would close as started (nobody is asked about them).
 */
function pendingApprovalCalls(
  records: readonly TranscriptRecord[],
  switches: RestoreKindSwitches,
): PendingOnDiskCall[] {
  const found = pendingApprovalsFromRecords(records, { includeQuestions: switches.question });
  return (found?.calls ?? [])
    .filter((c) => c.decision === "re_ask")
    .map((c) => ({ kind: c.kind, call: c.call }));
}
