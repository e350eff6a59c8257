// The question batch a transcript ends with, as the daemon reads it from disk: the ask_user_question calls
// of the last model entry that have no result yet. Pure, and on purpose free of core's tool code (the daemon
// does not load the agent's tools): the child judges the batch, this only names its calls.
import {
  type FunctionCall,
  functionCallsOf,
  functionResponsesOf,
  type TranscriptRecord,
} from "@qwen-daemon/core";
import { ASK_USER_QUESTION_TOOL } from "@qwen-daemon/core/protocol";

/** The tool name docs/protocol.md gives the question (the child's permission requests carry it as `toolName`). */
export const QUESTION_TOOL_NAME = ASK_USER_QUESTION_TOOL;

/**
 * The ask_user_question calls (with ids) of the last model record, when only tool results follow it (some of a
 * batch's results may be on disk when a crash cut their writing short), minus those the results answer; []
 * when anything else follows (a later prompt). System records are skipped, as in the child's scan.
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
      (call) => call.name === QUESTION_TOOL_NAME && call.id && !answered.has(call.id),
    );
  }
  return [];
}
