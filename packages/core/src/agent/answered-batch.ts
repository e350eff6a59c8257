// Closing a dangling tool batch with answers the user gave before a crash (docs/restore.md "The guarantees", for the
// batches restore does not re-ask). The host (a daemon) acknowledged an answer to a question and made it
// durable in its own journal, then everything died before the tool results were written (or while they were:
// a batch's results are written one by one, so a kill can leave some of them on disk). When the batch will
// not be asked again (it mixes the question with other tools, or no one is there to ask it), load writes its
// results from those answers: the user's answer for each answered question, the orphan-repair failure for
// every other call, exactly what the model would otherwise only see for the unanswered ones. Pure.
import type { Content, Part } from "../content.js";
import { ORPHAN_TOOL_RESULT_TEXT } from "../history/orphan-repair.js";
import { parseAskUserQuestionParams } from "../tools/ask-user-question-params.js";
import {
  ASK_USER_QUESTION_TOOL_NAME,
  formatAskUserQuestionAnswers,
  toolCanceledByUserText,
} from "../tools/ask-user-question-result.js";
import type { ToolCallResult } from "../transcript/records.js";
import type { ConfirmationOutcome } from "./contract.js";

/** An answer the host already has for a question, by the question's call id (approved or the user's no). */
export type GivenAnswer = Extract<ConfirmationOutcome, { outcome: "approved" } | { outcome: "rejected" }>;

export interface AnsweredBatch {
  /** One tool result per call of the batch, in call order, as the turn loop records them. */
  results: { message: Content; result: ToolCallResult }[];
  /** The question calls whose result is the user's answer. */
  answeredCallIds: string[];
  /** The call ids closed here (the batch's calls that had no result yet). */
  callIds: string[];
}

/**
 * The batch the history ends with: the last model entry's calls, minus those a trailing user entry of only
 * tool results already answers (a crash can cut the writing of a batch's results short). Undefined when the
 * history does not end that way.
 */
function openBatch(
  history: readonly Content[],
): { model: Content; answered: ReadonlySet<string> } | undefined {
  const last = history.at(-1);
  if (last?.role === "model") return { model: last, answered: new Set() };
  const before = history.at(-2);
  if (last?.role !== "user" || before?.role !== "model" || last.parts.length === 0) return undefined;
  if (!last.parts.every((p) => p.functionResponse !== undefined)) return undefined;
  return { model: before, answered: new Set(last.parts.flatMap((p) => p.functionResponse?.id ?? [])) };
}

/**
 * The results closing the batch `history` ends with (its calls still without a result) when at least one of
 * its open questions has a given answer; undefined otherwise (no open batch, or nothing of it answered). A
 * question whose arguments do not parse was never asked, so an answer for it is not used.
 */
export function answeredBatchResults(
  history: readonly Content[],
  given: ReadonlyMap<string, GivenAnswer>,
): AnsweredBatch | undefined {
  const batch = openBatch(history);
  if (batch === undefined) return undefined;
  const last = batch.model;
  const seen = new Set<string>(batch.answered);
  const results: AnsweredBatch["results"] = [];
  const answeredCallIds: string[] = [];
  for (const part of last.parts) {
    const call = part.functionCall;
    if (!call?.id || seen.has(call.id)) continue;
    seen.add(call.id);
    const answer = call.name === ASK_USER_QUESTION_TOOL_NAME ? given.get(call.id) : undefined;
    const params = answer === undefined ? undefined : parseAskUserQuestionParams(call.args);
    if (answer === undefined || params === undefined) {
      results.push(result(call.id, call.name, { error: ORPHAN_TOOL_RESULT_TEXT }, "error"));
      continue;
    }
    answeredCallIds.push(call.id);
    results.push(
      answer.outcome === "approved"
        ? result(
            call.id,
            call.name,
            { output: formatAskUserQuestionAnswers(params, answer.answers) },
            "success",
          )
        : result(call.id, call.name, { error: toolCanceledByUserText(call.name) }, "cancelled"),
    );
  }
  if (answeredCallIds.length === 0) return undefined;
  return { results, answeredCallIds, callIds: results.map((r) => r.result.callId) };
}

function result(
  id: string,
  name: string,
  response: { output: string } | { error: string },
  status: ToolCallResult["status"],
): AnsweredBatch["results"][number] {
  const part: Part = { functionResponse: { id, name, response } };
  const text = "output" in response ? response.output : response.error;
  return { message: { role: "user", parts: [part] }, result: { callId: id, status, resultDisplay: text } };
}
