// docs/restore.md "The guarantees", restore side: when the child re-hangs a question after a restart and the user had
// already answered it (the daemon acknowledged and journaled the answer, then everything died before the
// child wrote the tool result), the re-hung request is resolved from the journal instead of asking again.
import type { AnswerJournal } from "../answers/answer-journal.js";
import type { JournalHealth } from "../answers/journal-health.js";
import {
  answerKeyOf,
  decisionOf,
  findJournaledAnswer,
  type JournalScope,
  journaledCallId,
  type QuestionRequest,
  transcriptHoldsCall,
} from "../answers/journaled-answer.js";
import type { PermissionDecision } from "../permission/vote.js";
import type { SessionStore } from "../persisted/session-store.js";

export type AnswerReplayDeps = {
  journal: AnswerJournal;
  /** Transcripts, to tell a journaled answer for this call from one for an earlier call with the same id. */
  store: SessionStore;
  log: (line: string) => void;
  /** Where damaged journal lines are counted (for `/daemon/status`). */
  health: JournalHealth;
};

/** A re-hung call is the transcript's last model entry, so a short tail holds it; longer reads are the fallback. */
export const TRANSCRIPT_TAIL_RECORDS = 200;

/**
 * The decision a journaled answer gives the re-hung `request` (not yet shown to anyone), or undefined when
 * none applies. Never throws: any failure leaves the question to be asked of a human, which is what would
 * have happened without a journal.
 */
export async function journaledDecisionFor(
  deps: AnswerReplayDeps,
  request: QuestionRequest,
  cwd: string,
  scope: JournalScope = { approvals: false },
): Promise<PermissionDecision | undefined> {
  const { sessionId, toolCall } = request;
  const toolCallId = journaledCallId(toolCall, scope);
  if (toolCallId === undefined) return undefined;
  let lookup: ReturnType<typeof findJournaledAnswer>;
  try {
    const read = await deps.journal.read(cwd, sessionId);
    const damage = deps.health.note(sessionId, read);
    if (damage !== undefined && damage.corruptLines > 0) {
      deps.log(
        `qwen serve: answer journal of ${sessionId} has ${damage.corruptLines} corrupt line(s); they were skipped`,
      );
    }
    const { entries } = read;
    if (!entries.some((e) => e.type === "answer" && e.toolCallId === toolCallId)) return undefined;
    let transcript = await deps.store.readRecords(cwd, sessionId, TRANSCRIPT_TAIL_RECORDS);
    if (transcript?.length === TRANSCRIPT_TAIL_RECORDS && !transcriptHoldsCall(transcript, toolCallId)) {
      transcript = await deps.store.readRecords(cwd, sessionId);
    }
    lookup = findJournaledAnswer(entries, {
      sessionId,
      toolCallId,
      questionsKey: answerKeyOf(toolCall),
      transcript,
    });
  } catch (error) {
    deps.log(
      `qwen serve: answer journal of ${sessionId} could not be checked for ${toolCallId}; the question is asked: ${String(error)}`,
    );
    return undefined;
  }
  if (lookup.answer === undefined) {
    deps.log(
      `qwen serve: journaled answer for ${toolCallId} on ${sessionId} not applied (${lookup.reason}); the question is asked`,
    );
    return undefined;
  }
  return decisionOf(lookup.answer);
}
