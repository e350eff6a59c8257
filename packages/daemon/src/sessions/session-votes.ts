// Votes on pending permission requests, routed to the session the request belongs to and made durable
// (durable-vote.ts) before they are acknowledged.
import type { VoteOutcome } from "@qwen-daemon/core/protocol";
import type { KeyedSerializer } from "../answers/keyed-serializer.js";
import type { VoteResult } from "../permission/mediator.js";
import { voteDurably } from "./durable-vote.js";
import type { SessionContext } from "./session-context.js";
import { assertClient, requireSession } from "./session-lookup.js";

export type SessionVote = {
  sessionId?: string;
  requestId: string;
  clientId: string | undefined;
  remoteAddress: string | undefined;
  outcome: VoteOutcome;
  answers?: Record<string, string> | undefined;
};

/**
 * A vote on a pending permission request. The client id must be registered on the session the request
 * belongs to (for the legacy route, the session is found from the request id). A vote that answers a
 * question resolves only once the answer is journaled (see durable-vote.ts); the promise rejects with a
 * 500 HttpError when the journal cannot be written, and the question stays waiting. `inProgress` holds
 * the votes being judged, journaled and applied, one at a time per request.
 */
export function castVote(
  ctx: SessionContext,
  inProgress: KeyedSerializer,
  v: SessionVote,
): Promise<VoteResult> {
  const { mediator, registry } = ctx;
  const session =
    v.sessionId !== undefined
      ? requireSession(registry, v.sessionId)
      : registry.live().find((s) => mediator.pending(s.sessionId).some((p) => p.requestId === v.requestId));
  if (session !== undefined) {
    assertClient(session, v.clientId);
    session.touch(ctx.options.clock.now());
  }
  return voteDurably(
    {
      mediator,
      journal: ctx.options.answerJournal,
      inProgress,
      workspaceOf: (sessionId) => registry.getAny(sessionId)?.workspaceCwd ?? ctx.workspace,
      clock: ctx.options.clock,
      log: ctx.options.log,
    },
    {
      ...(v.sessionId !== undefined ? { sessionId: v.sessionId } : {}),
      requestId: v.requestId,
      ...(v.clientId !== undefined ? { clientId: v.clientId } : {}),
      ...(v.remoteAddress !== undefined ? { remoteAddress: v.remoteAddress } : {}),
      outcome: v.outcome,
      ...(v.answers !== undefined ? { answers: v.answers } : {}),
    },
  );
}
