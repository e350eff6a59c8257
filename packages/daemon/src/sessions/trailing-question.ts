// The question batch a transcript ends with, as the daemon reads it from disk: the ask_user_question calls
// of the last model entry. Pure, and on purpose free of core's tool code (the daemon does not load the
// agent's tools): the child has already judged the batch (its restore hint), this only names its calls.
import { type FunctionCall, functionCallsOf, type TranscriptRecord } from "@qwen-daemon/core";

/** The tool name PROTOCOL.md gives the question (the child's permission requests carry it as `toolName`). */
export const QUESTION_TOOL_NAME = "ask_user_question";

/**
 * The ask_user_question calls (with ids) of the last record that carries a message, when that is the model's;
 * [] otherwise. System records are skipped, as in the child's scan.
 */
export function trailingQuestionCalls(records: readonly TranscriptRecord[]): FunctionCall[] {
  for (let i = records.length - 1; i >= 0; i--) {
    const record = records[i];
    if (record === undefined || record.type === "system") continue;
    if (record.message.role !== "model") return [];
    return functionCallsOf(record.message).filter((call) => call.name === QUESTION_TOOL_NAME && call.id);
  }
  return [];
}
