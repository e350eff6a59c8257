// The one rule for the end of a session's transcript after a crash (docs/restore.md "After a crash: how the
// session ends decides"). Pure: it reads only the tail of the records (back to the last reply with tool calls),
// so its cost does not depend on the session's length.
//
//   restorable_question   the last reply asks questions nobody answered: ask them again (--restore-ask-user-question)
//   restorable_approvals  the last reply waits for approvals whose tools never started: ask again
//                         (--restore-pending-approvals; its questions too with both switches)
//   answered_unseen       every call of the last reply has its result, at least one of them a person's answer (a
//                         question answered, a tool a person approved and that ran), and the turn neither ended nor
//                         stopped: the model never saw the results, so the same turn goes on (when `covered`: the
//                         switch of every kind of answer in it is on)
//   interrupted           cut short with nothing a restore does: dangling calls are closed as failed, a prompt or
//                         results the model never answered wait for the next prompt (or /continue)
//   idle                  nothing was cut short
//
// The first two come from the scans beside this file (ask-user-question-restore.ts, pending-approval-restore.ts);
// this file adds the third and says which applies. A load acts on the tail only with a client to ask (or to see
// the turn go on) and an idle session; the host decides that part.
import type { Content, FunctionCall } from "../content.js";
import type { RestoreKindSwitches } from "../protocol/restore-kinds.js";
import { ASK_USER_QUESTION_TOOL_NAME } from "../tools/ask-user-question-result.js";
import {
  TOOL_STARTED_SUBTYPE,
  type ToolCallResult,
  type ToolStartApproval,
  ToolStartedData,
  type TranscriptRecord,
  TURN_RESULT_SUBTYPE,
} from "../transcript/records.js";
import { findRestorableAskUserQuestion } from "./ask-user-question-restore.js";
import {
  historyTailFromRecords,
  pendingApprovalsFromRecords,
  pendingInteractionKindOf,
  type RestorablePendingApprovals,
} from "./pending-approval-restore.js";

export type RestoreTail =
  | { kind: "idle" }
  | { kind: "interrupted" }
  | { kind: "restorable_question"; calls: FunctionCall[] }
  | { kind: "restorable_approvals"; found: RestorablePendingApprovals }
  | {
      kind: "answered_unseen";
      /** Which switches the answers need: a question's needs `question`, a person's approval `approvals`. */
      needs: RestoreKindSwitches;
      /** The switches given cover every answer: the turn may go on. */
      covered: boolean;
      /** The calls of the batch, in the model's order. */
      callIds: string[];
    };

/**
 * How the records end, for a load with `switches` (see the file comment). An answered, unseen tail is reported
 * whatever the switches (with `covered` false when one is off: the answers are kept and reach the model with
 * the next prompt), so a host can say what it did not do and why.
 */
export function classifyRestoreTail(
  records: readonly TranscriptRecord[],
  switches: RestoreKindSwitches,
): RestoreTail {
  const tail = historyTailFromRecords(records);
  const last = tail.at(-1);
  if (last === undefined) return { kind: "idle" };
  if (last.role === "model") {
    if (!hasCallWithId(last)) return { kind: "idle" };
    if (switches.question) {
      const question = findRestorableAskUserQuestion(last);
      if (question) return { kind: "restorable_question", calls: question.functionCalls };
    }
    return approvalsOrInterrupted(records, switches);
  }
  const batch = tail.length === 2 ? tail[0] : undefined;
  // A user's prompt the model never answered (or results without the reply that asked for them).
  if (batch === undefined || !hasCallWithId(batch)) return { kind: "interrupted" };
  const answered = new Set(last.parts.flatMap((p) => p.functionResponse?.id ?? []));
  const callIds = batch.parts.flatMap((p) => p.functionCall?.id ?? []);
  if (callIds.some((id) => !answered.has(id))) return approvalsOrInterrupted(records, switches);
  return answeredTail(records, batch, callIds, switches);
}

/** True when `tail` is one a load with `switches` acts on by itself (asks again, or lets the turn go on). */
export function restoreActsOn(tail: RestoreTail): boolean {
  return (
    tail.kind === "restorable_question" ||
    tail.kind === "restorable_approvals" ||
    (tail.kind === "answered_unseen" && tail.covered)
  );
}

function approvalsOrInterrupted(
  records: readonly TranscriptRecord[],
  switches: RestoreKindSwitches,
): RestoreTail {
  if (!switches.approvals) return { kind: "interrupted" };
  const found = pendingApprovalsFromRecords(records, { includeQuestions: switches.question });
  return found !== undefined && found.reAsk.length > 0
    ? { kind: "restorable_approvals", found }
    : { kind: "interrupted" };
}

/** A complete batch: does it go on (a person's answer the model never saw), or did its turn end or stop? */
function answeredTail(
  records: readonly TranscriptRecord[],
  batch: Content,
  callIds: string[],
  switches: RestoreKindSwitches,
): RestoreTail {
  const facts = batchFacts(records);
  // The turn wrote its end (a refusal stopped it, the model failed, ...): nothing was cut short.
  if (facts.turnEnded) return { kind: "idle" };
  // A declined question, a refused approval or a cancel stops a live turn there: the model sees it with the
  // next prompt, and a crash before the end of the turn was written changes nothing.
  if (facts.cancelled) return { kind: "interrupted" };
  const needs: RestoreKindSwitches = { question: false, approvals: false };
  for (const part of batch.parts) {
    const call = part.functionCall;
    if (!call?.id) continue;
    // A question counts only when a person answered it: one the tool refused (bad parameters) has an error
    // result that nobody gave, and the live turn would have gone on without anyone.
    if (call.name === ASK_USER_QUESTION_TOOL_NAME) {
      if (facts.status.get(call.id) === "success") needs.question = true;
    } else if (pendingInteractionKindOf(call.name) !== undefined && facts.startedBy.get(call.id) === "user")
      needs.approvals = true;
  }
  // Nobody answered anything (read-only tools, tools the approval mode let run): a plain interrupted turn.
  if (!needs.question && !needs.approvals) return { kind: "interrupted" };
  const covered = (!needs.question || switches.question) && (!needs.approvals || switches.approvals);
  return { kind: "answered_unseen", needs, covered, callIds };
}

/**
 * What the records after the last reply with tool calls say: a `turn_result` (the turn ended), a result with
 * status `cancelled` (the turn stopped there), each result's status, and who let each started tool run.
 */
function batchFacts(records: readonly TranscriptRecord[]): {
  turnEnded: boolean;
  cancelled: boolean;
  status: Map<string, ToolCallResult["status"]>;
  startedBy: Map<string, ToolStartApproval>;
} {
  let turnEnded = false;
  let cancelled = false;
  const status = new Map<string, ToolCallResult["status"]>();
  const startedBy = new Map<string, ToolStartApproval>();
  for (let i = records.length - 1; i >= 0; i--) {
    const record = records[i];
    if (!record || record.type === "user") break;
    if (record.type === "assistant" && record.message.parts.some((p) => p?.functionCall)) break;
    if (record.type === "tool_result" && record.toolCallResult) {
      status.set(record.toolCallResult.callId, record.toolCallResult.status);
      if (record.toolCallResult.status === "cancelled") cancelled = true;
    }
    if (record.type !== "system") continue;
    if (record.subtype === TURN_RESULT_SUBTYPE) turnEnded = true;
    if (record.subtype !== TOOL_STARTED_SUBTYPE) continue;
    const data = ToolStartedData.safeParse(record.data);
    if (data.success) startedBy.set(data.data.callId, data.data.approval);
  }
  return { turnEnded, cancelled, status, startedBy };
}

function hasCallWithId(content: Content | undefined): content is Content {
  return content?.parts.some((p) => p?.functionCall?.id) === true;
}
