// A vote on a pending permission request, from the route to the mediator. The client id must be registered
// on the session the request belongs to (for the legacy route, the session is found from the request id).
// docs/restore.md "The guarantees", vote side: a vote that resolves a question is journaled (fsynced) before it is
// applied and acknowledged, so a crash right after the 200 cannot lose the answer. Order: judge (policy and
// the rest, resolving nothing) -> journal -> resolve -> 200. A journal that cannot be written is a 500 and
// the question stays waiting. Votes on one request are handled one at a time, so the journal never holds the
// answer of a vote that lost a race. Votes on tool approvals are journaled the same way with
// `--restore-pending-approvals` (an approval acknowledged with 200 is then never asked again after a crash);
// without it they are applied as before, without a journal line.

import { answerEntryFor, withdrawalOf } from "../answers/journaled-answer.js";
import { answerNotSaved, sessionOwnedElsewhere } from "../errors/domain-errors.js";
import type { PermissionVote, VoteResult } from "../permission/mediator.js";
import { fencedOwner } from "./fenced-write.js";
import type { Sessions } from "./sessions.js";

/**
 * Resolves once the vote is applied; one that answers a question only once the answer is journaled. Rejects
 * with `answer_journal_failed` when the journal cannot be written (the question stays waiting).
 */
export function voteDurably(sessions: Sessions, vote: PermissionVote): Promise<VoteResult> {
  const { mediator, registry, options } = sessions;
  const session =
    vote.sessionId !== undefined
      ? sessions.require(vote.sessionId)
      : registry
          .live()
          .find((s) => mediator.pending(s.sessionId).some((p) => p.requestId === vote.requestId));
  // A link answer's voter (`link:<label>`) is registered nowhere: its capability was checked instead.
  if (vote.link === undefined) session?.assertClient(vote.clientId);
  session?.touch();
  return sessions.votesInProgress.run(vote.requestId, async () => {
    const check = mediator.checkVote(vote);
    if (check.kind === "refused") return check.result;
    if (check.kind === "partial") return mediator.commitVote(vote);
    const entry = answerEntryFor(check.request, check.decision, iso(options.clock.now()), {
      // A link answer to an approval is journaled whatever the switch: the journal is what makes a link
      // single-use across restarts (links/link-answer.ts), and without the switch nothing applies it.
      approvals: options.restorePendingApprovals === true || vote.link !== undefined,
    });
    if (entry === undefined) return mediator.commitVote(vote);
    const cwd = registry.getAny(entry.sessionId)?.workspaceCwd ?? sessions.workspace;
    try {
      await options.answerJournal.append(cwd, entry);
    } catch (error) {
      options.log(
        `qwen serve: answer to ${entry.requestId} on ${entry.sessionId} not applied: journal write failed: ${String(error)}`,
      );
      const owner = fencedOwner(error);
      if (owner !== undefined) {
        // Another daemon took the session over while this one was frozen or cut off: the answer is not
        // this daemon's to apply, and the session is not its to keep.
        sessions.lost(entry.sessionId, owner);
        throw sessionOwnedElsewhere(entry.sessionId, owner);
      }
      throw answerNotSaved(entry.sessionId, entry.requestId, errnoCode(error));
    }
    const result = mediator.commitVote(vote);
    if (result.kind !== "resolved") {
      // The request ended some other way while the answer was being written (timeout, session closed): the
      // voter is told so, and the journal must not apply that answer to the question after a restart either.
      try {
        await options.answerJournal.append(cwd, withdrawalOf(entry, iso(options.clock.now())));
      } catch (error) {
        options.log(
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
