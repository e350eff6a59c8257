// Eligibility of a trailing, unanswered ask_user_question for restore (docs/restore.md "When it happens, and when not").
// Only the last history entry is looked at, so the cost does not depend on history length, and the
// history is never cloned. Fail-closed: anything unexpected means "not restorable", and the call then
// goes through ordinary orphan repair.
import type { Content, FunctionCall } from "../content.js";
import { parseAskUserQuestionParams } from "../tools/ask-user-question-params.js";
import { ASK_USER_QUESTION_TOOL_NAME } from "../tools/ask-user-question-result.js";
import type { TranscriptRecord } from "../transcript/records.js";

export interface RestorableAskUserQuestion {
  /** The AUQ calls of the last model entry, in order (a batch may hold several). */
  functionCalls: FunctionCall[];
}

/**
 * The restorable AUQ batch of `last`, or undefined. `last` must be a model entry whose every
 * functionCall part that has an id is an ask_user_question with valid arguments, and there must be at
 * least one. Parts without an id (which no response could ever be paired with), text and thought parts
 * are ignored; a single other tool in the batch makes the whole batch ineligible.
 */
export function findRestorableAskUserQuestion(
  last: Content | undefined,
): RestorableAskUserQuestion | undefined {
  if (last?.role !== "model" || !Array.isArray(last.parts)) return undefined;
  const functionCalls: FunctionCall[] = [];
  for (const part of last.parts) {
    const call = part?.functionCall;
    if (!call?.id) continue;
    if (call.name !== ASK_USER_QUESTION_TOOL_NAME) return undefined;
    if (parseAskUserQuestionParams(call.args) === undefined) return undefined;
    functionCalls.push(call);
  }
  return functionCalls.length > 0 ? { functionCalls } : undefined;
}

/** The ids of {@link findRestorableAskUserQuestion}'s calls, or undefined when nothing is restorable. */
export function restorableAskUserQuestionCallIds(last: Content | undefined): Set<string> | undefined {
  const restorable = findRestorableAskUserQuestion(last);
  if (!restorable) return undefined;
  // Every call kept by the scan has a non-empty id; the filter only narrows the type.
  return new Set(restorable.functionCalls.flatMap((call) => (call.id ? [call.id] : [])));
}

/**
 * The last history entry as the transcript records say, before any chat exists (cold replay): walks
 * from the end, skips `system` records, and returns the message of the first record that has one.
 */
export function lastHistoryContentFromRecords(records: readonly TranscriptRecord[]): Content | undefined {
  for (let i = records.length - 1; i >= 0; i--) {
    const record = records[i];
    if (!record || record.type === "system" || !record.message) continue;
    return record.message;
  }
  return undefined;
}
