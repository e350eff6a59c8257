// Where a tool call stands in a session's transcript records, for the daemon, which reads the transcript the
// agent wrote but keeps no reader of that format of its own: the question batch a transcript ends with, and
// whether (and when) a call was made and answered. Pure; the record format and these scans live together in
// core, so a change of format changes them in the same place.
import { type FunctionCall, functionCallsOf, functionResponsesOf } from "../content.js";
import { ASK_USER_QUESTION_TOOL_NAME } from "../tools/ask-user-question-result.js";
import type { TranscriptRecord } from "../transcript/records.js";

/**
 * The ask_user_question calls (with ids) of the last model record, when only tool results follow it (some of a
 * batch's results may be on disk when a crash cut their writing short), minus those the results answer; []
 * when anything else follows (a later prompt). System records are skipped, as in the agent's restore scan.
 */
export function trailingQuestionCalls(records: readonly TranscriptRecord[]): FunctionCall[] {
  const answered = new Set<string>();
  for (let i = records.length - 1; i >= 0; i--) {
    const record = records[i];
    if (record === undefined || record.type === "system") continue;
    if (record.type === "tool_result") {
      for (const response of functionResponsesOf(record.message)) if (response.id) answered.add(response.id);
      continue;
    }
    if (record.message.role !== "model") return [];
    return functionCallsOf(record.message).filter(
      (call) => call.name === ASK_USER_QUESTION_TOOL_NAME && call.id && !answered.has(call.id),
    );
  }
  return [];
}

/** A call's last occurrence in a transcript. */
export interface CallInTranscript {
  /** The timestamp of the record that made the call (its last occurrence: ids may be reused). */
  askedAt: string;
  /** A later record holds a result for it. */
  answered: boolean;
}

/** Where the call `toolCallId` was last made in `records` and whether a result followed; undefined when absent. */
export function callInTranscript(
  records: readonly TranscriptRecord[],
  toolCallId: string,
): CallInTranscript | undefined {
  for (let i = records.length - 1; i >= 0; i--) {
    const record = records[i] as TranscriptRecord;
    if (!functionCallsOf(messageOf(record)).some((call) => call.id === toolCallId)) continue;
    const answered = records
      .slice(i + 1)
      .some((r) => functionResponsesOf(messageOf(r)).some((response) => response.id === toolCallId));
    return { askedAt: record.timestamp, answered };
  }
  return undefined;
}

function messageOf(record: TranscriptRecord) {
  return "message" in record ? record.message : undefined;
}
