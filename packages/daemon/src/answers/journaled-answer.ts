// Pure rules of the answer journal: which votes are journaled, what a journal line says, and whether a
// journaled answer applies to a question the child re-hangs after a restart.
import { createHash } from "node:crypto";
import { callInTranscript, type TranscriptRecord } from "@qwen-daemon/core";
import { isQuestionToolCall, toolCallQuestions } from "@qwen-daemon/core/protocol";
import type { PermissionDecision } from "../permission/vote.js";
import type { AnswerEntry, JournalEntry, WithdrawnEntry } from "./answer-record.js";

/** What of a permission request the journal needs (PendingPermission and the child's params both fit). */
export type QuestionRequest = { sessionId: string; requestId: string; toolCall: Record<string, unknown> };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** An ask_user_question request (docs/protocol.md "The agent process": `_meta.qwenInteractionKind` or `_meta.toolName`). */
export function isUserQuestion(toolCall: Record<string, unknown>): boolean {
  return isQuestionToolCall(toolCall);
}

/** The question's tool call id, when the request is a question that has one. */
export function questionCallId(toolCall: Record<string, unknown>): string | undefined {
  const id = toolCall.toolCallId;
  return isUserQuestion(toolCall) && typeof id === "string" && id !== "" ? id : undefined;
}

/**
 * The call id of a tool approval (any request that is not a question) that has one. Journaled only with
 * `--restore-pending-approvals`: only then can the approval be asked again after a restart and answered from
 * the journal, and only then does the child keep a refused or unattended approval as the question's rules say.
 */
export function approvalCallId(toolCall: Record<string, unknown>): string | undefined {
  const id = toolCall.toolCallId;
  return !isUserQuestion(toolCall) && typeof id === "string" && id !== "" ? id : undefined;
}

/** Which requests the journal covers: questions always, tool approvals with the approvals switch. */
export type JournalScope = { approvals: boolean };

/** The call id the journal files a request's answer under, or undefined when it does not cover the request. */
export function journaledCallId(toolCall: Record<string, unknown>, scope: JournalScope): string | undefined {
  return questionCallId(toolCall) ?? (scope.approvals ? approvalCallId(toolCall) : undefined);
}

/**
 * The fingerprint a journaled answer is matched by: the questions for a question, the tool's input for an
 * approval (an approval asked again is rebuilt from the same saved arguments; its title or diff may differ).
 */
export function answerKeyOf(toolCall: Record<string, unknown>): string | undefined {
  if (isUserQuestion(toolCall)) return questionsKeyOf(toolCall);
  if (!("rawInput" in toolCall)) return undefined;
  return createHash("sha256")
    .update(canonicalJson({ rawInput: toolCall.rawInput }))
    .digest("hex");
}

/**
 * A fingerprint of the questions (sha256 of their JSON with sorted keys). A re-hung question is rebuilt from
 * the same saved arguments, so it has the same key; a model that reuses a call id for another question does not.
 */
export function questionsKeyOf(toolCall: Record<string, unknown>): string | undefined {
  const questions = toolCallQuestions(toolCall);
  if (questions === undefined) return undefined;
  return createHash("sha256").update(canonicalJson(questions)).digest("hex");
}

/**
 * The journal line for a vote that resolves `request` with `decision`, or undefined when nothing is journaled:
 * a request the journal does not cover (a tool approval without the approvals switch keeps its plain
 * behaviour), no call id to find it by, or not a user's answer.
 */
export function answerEntryFor(
  request: QuestionRequest,
  decision: PermissionDecision,
  at: string,
  scope: JournalScope = { approvals: false },
): AnswerEntry | undefined {
  const toolCallId = journaledCallId(request.toolCall, scope);
  if (toolCallId === undefined) return undefined;
  if (decision.outcome.outcome === "cancelled" && decision.reason !== "user") return undefined;
  const questionsKey = answerKeyOf(request.toolCall);
  return {
    v: 1,
    type: "answer",
    sessionId: request.sessionId,
    toolCallId,
    ...(questionsKey !== undefined ? { questionsKey } : {}),
    outcome:
      decision.outcome.outcome === "selected"
        ? { outcome: "selected", optionId: decision.outcome.optionId }
        : { outcome: "cancelled" },
    ...(decision.answers !== undefined ? { answers: decision.answers } : {}),
    requestId: request.requestId,
    ...(decision.voterClientId !== undefined ? { voterClientId: decision.voterClientId } : {}),
    at,
  };
}

/** The line that withdraws `entry` (journaled, then not applied because the request ended meanwhile). */
export function withdrawalOf(entry: AnswerEntry, at: string): WithdrawnEntry {
  return {
    v: 1,
    type: "withdrawn",
    sessionId: entry.sessionId,
    toolCallId: entry.toolCallId,
    requestId: entry.requestId,
    at,
  };
}

/** The decision a journaled answer stands for (the voter of an earlier daemon run means nothing now). */
export function decisionOf(entry: AnswerEntry): PermissionDecision {
  if (entry.outcome.outcome === "cancelled") return { outcome: { outcome: "cancelled" }, reason: "user" };
  return {
    outcome: { outcome: "selected", optionId: entry.outcome.optionId },
    ...(entry.answers !== undefined ? { answers: entry.answers } : {}),
  };
}

export type JournalQuery = {
  sessionId: string;
  toolCallId: string;
  questionsKey: string | undefined;
  /**
   * The session's transcript records in file order (a tail holding the call is enough), or undefined when
   * the daemon cannot read the transcript (e.g. a child that stores it elsewhere).
   */
  transcript: readonly TranscriptRecord[] | undefined;
};

export type JournalLookup =
  | { answer: AnswerEntry }
  | {
      answer?: undefined;
      /**
       * - `none`: nothing journaled for this call (or only for other questions / withdrawn answers);
       * - `call_not_in_transcript`: the transcript does not hold the call, so nothing can be anchored to it;
       * - `already_answered`: the transcript answers the call after its last occurrence;
       * - `obsolete`: every answer predates the call's last occurrence (it answered an earlier call with the same id).
       */
      reason: "none" | "call_not_in_transcript" | "already_answered" | "obsolete";
    };

/**
 * The journaled answer to apply to the re-hung question `query.toolCallId`, if any: the newest answer for that
 * call id and those questions that was not withdrawn, given after the call's last occurrence in the transcript
 * (an answer written before it belongs to an earlier call that reused the id, and the transcript answers that
 * one). The order is judged by wall-clock time (the child's record timestamp against the daemon's `at`): a
 * clock stepping backwards between question and vote makes an answer look obsolete, so the user is asked
 * again, never answered with someone else's answer.
 */
export function findJournaledAnswer(entries: readonly JournalEntry[], query: JournalQuery): JournalLookup {
  const withdrawn = new Set(
    entries.flatMap((e) =>
      e.type === "withdrawn" && e.toolCallId === query.toolCallId ? [e.requestId] : [],
    ),
  );
  const candidates = entries.filter(
    (e): e is AnswerEntry =>
      e.type === "answer" &&
      e.sessionId === query.sessionId &&
      e.toolCallId === query.toolCallId &&
      !withdrawn.has(e.requestId) &&
      (query.questionsKey === undefined ||
        e.questionsKey === undefined ||
        e.questionsKey === query.questionsKey),
  );
  if (candidates.length === 0) return { reason: "none" };
  if (query.transcript === undefined) return { answer: candidates[candidates.length - 1] as AnswerEntry };

  const call = callInTranscript(query.transcript, query.toolCallId);
  if (call === undefined) return { reason: "call_not_in_transcript" };
  if (call.answered) return { reason: "already_answered" };
  const askedAt = Date.parse(call.askedAt);
  if (Number.isNaN(askedAt)) return { reason: "call_not_in_transcript" };
  const current = candidates.filter((e) => Date.parse(e.at) >= askedAt);
  const answer = current[current.length - 1];
  return answer === undefined ? { reason: "obsolete" } : { answer };
}

/** True when the records hold a functionCall with this id (the tail read was long enough). */
export function transcriptHoldsCall(records: readonly TranscriptRecord[], toolCallId: string): boolean {
  return callInTranscript(records, toolCallId) !== undefined;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isRecord(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
