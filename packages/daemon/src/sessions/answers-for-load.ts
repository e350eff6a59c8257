// docs/restore.md "The guarantees" for the batches a restore does not re-ask. Before the daemon asks its child to load
// or resume a session, it looks in its answer journal for answers it acknowledged to the questions the
// transcript ends with, and hands them to the child (`_meta["qwen.daemon.journaledAnswers"]`). A batch the
// child will re-ask is answered from the journal as before (answer-replay.ts); a batch it will not re-ask (a
// question beside another tool, or a load with nobody to ask) is closed with these answers as its real tool
// results, instead of the orphan-repair failure that would lose them. Best effort, like every restore input:
// any doubt or failure sends nothing, and the load goes on exactly as it would have without a journal.
import { trailingQuestionCalls } from "@qwen-daemon/core";
import {
  ASK_USER_QUESTION_TOOL,
  JOURNALED_ANSWERS_META_KEY,
  type Meta,
  type PermissionResponse,
  toolCallMeta,
} from "@qwen-daemon/core/protocol";
import type { AnswerJournal } from "../answers/answer-journal.js";
import { decisionOf, findJournaledAnswer, questionsKeyOf } from "../answers/journaled-answer.js";
import { toAcpPermissionResponse } from "../bridge/permission-response.js";
import type { SessionStore } from "../persisted/session-store.js";
import { TRANSCRIPT_TAIL_RECORDS } from "./answer-replay.js";

export type AnswersForLoadDeps = { journal: AnswerJournal; store: SessionStore; log: (line: string) => void };

/** The `_meta` carrying the journaled answers to the trailing questions, or undefined when there are none. */
export async function journaledAnswersMeta(
  deps: AnswersForLoadDeps,
  cwd: string,
  sessionId: string,
): Promise<Meta | undefined> {
  try {
    // Damaged lines are skipped by the read; they are counted where a re-hung question reads the journal.
    const { entries } = await deps.journal.read(cwd, sessionId);
    if (!entries.some((e) => e.type === "answer")) return undefined;
    const transcript = await deps.store.readRecords(cwd, sessionId, TRANSCRIPT_TAIL_RECORDS);
    if (transcript === undefined) return undefined;
    const answers: Record<string, PermissionResponse> = {};
    for (const call of trailingQuestionCalls(transcript)) {
      const toolCallId = call.id as string;
      const toolCall = { toolCallId, rawInput: call.args ?? {}, _meta: toolCallMeta(ASK_USER_QUESTION_TOOL) };
      const lookup = findJournaledAnswer(entries, {
        sessionId,
        toolCallId,
        questionsKey: questionsKeyOf(toolCall),
        transcript,
      });
      if (lookup.answer !== undefined)
        answers[toolCallId] = toAcpPermissionResponse(decisionOf(lookup.answer));
    }
    return Object.keys(answers).length > 0 ? { [JOURNALED_ANSWERS_META_KEY]: answers } : undefined;
  } catch (error) {
    deps.log(`qwen serve: answer journal of ${sessionId} could not be read for its load: ${String(error)}`);
    return undefined;
  }
}
