// RESTORE-SPEC guarantee 5, vote side: a vote that resolves a question is journaled (fsynced) before it is
// applied and acknowledged, so a crash right after the 200 cannot lose the answer. Order: judge (policy and
// the rest, resolving nothing) -> journal -> resolve -> 200. A journal that cannot be written is a 500 and
// the question stays waiting. Votes on one request are handled one at a time, so the journal never holds the
// answer of a vote that lost a race. Votes on tool approvals are applied as before, without a journal line.

import type { AnswerJournal } from "../answers/answer-journal.js";
import { answerEntryFor, withdrawalOf } from "../answers/journaled-answer.js";
import type { KeyedSerializer } from "../answers/keyed-serializer.js";
import type { Clock } from "../events/clock.js";
import { answerNotSaved } from "../http/errors.js";
import type { PermissionMediator, PermissionVote, VoteResult } from "../permission/mediator.js";

export type DurableVoteDeps = {
  mediator: PermissionMediator;
  journal: AnswerJournal;
  /** Votes in progress, keyed by request id (unique across the daemon's sessions). */
  inProgress: KeyedSerializer;
  /** The workspace folder a session's files live under. */
  workspaceOf: (sessionId: string) => string;
  clock: Clock;
  log: (line: string) => void;
};

export function voteDurably(deps: DurableVoteDeps, vote: PermissionVote): Promise<VoteResult> {
  const { mediator } = deps;
  return deps.inProgress.run(vote.requestId, async () => {
    const check = mediator.checkVote(vote);
    if (check.kind === "refused") return check.result;
    if (check.kind === "partial") return mediator.commitVote(vote);
    const entry = answerEntryFor(check.request, check.decision, iso(deps.clock.now()));
    if (entry === undefined) return mediator.commitVote(vote);
    const cwd = deps.workspaceOf(entry.sessionId);
    try {
      await deps.journal.append(cwd, entry);
    } catch (error) {
      deps.log(
        `qwen serve: answer to ${entry.requestId} on ${entry.sessionId} not applied: journal write failed: ${String(error)}`,
      );
      throw answerNotSaved(entry.sessionId, entry.requestId, errnoCode(error));
    }
    const result = mediator.commitVote(vote);
    if (result.kind !== "resolved") {
      // The request ended some other way while the answer was being written (timeout, session closed): the
      // voter is told so, and the journal must not apply that answer to the question after a restart either.
      try {
        await deps.journal.append(cwd, withdrawalOf(entry, iso(deps.clock.now())));
      } catch (error) {
        deps.log(
          `qwen serve: withdrawing the unapplied answer to ${entry.requestId} on ${entry.sessionId} failed: ${String(error)}`,
        );
      }
    }
    return result;
  });
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function errnoCode(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" ? code : undefined;
}
