// What the child sends on its own, routed to its session: session/update notifications (collected as the
// load replay while a session is opening, published on the bus otherwise) and permission requests
// (registered with the mediator under a fresh requestId; its decision is the ACP answer). A question (or
// approval) the child re-hangs in a restore prompt may already be answered by the answer journal: it is then
// resolved before any client sees it (docs/restore.md "The guarantees": nothing acknowledged is shown again).
import { randomUUID } from "node:crypto";
import type {
  PermissionRequestParams,
  PermissionResponse,
  SessionUpdatePayload,
} from "@qwen-daemon/core/protocol";
import type { AnswerJournal } from "../answers/answer-journal.js";
import type { JournalHealth } from "../answers/journal-health.js";
import { journaledCallId } from "../answers/journaled-answer.js";
import { CANCELLED_SESSION_CLOSED, toAcpPermissionResponse } from "../bridge/permission-response.js";
import type { Clock } from "../events/clock.js";
import type { PermissionMediator } from "../permission/mediator.js";
import type { PermissionDecision } from "../permission/vote.js";
import type { SessionStore } from "../persisted/session-store.js";
import { journaledDecisionFor } from "./answer-replay.js";
import type { LiveSession } from "./live-session.js";
import type { SessionRegistry } from "./session-registry.js";

export type ChildRelayDeps = {
  registry: SessionRegistry;
  mediator: PermissionMediator;
  clock: Clock;
  log: (line: string) => void;
  newId?: () => string;
  /** Where re-hung questions look for answers given before a restart. */
  answers?: { journal: AnswerJournal; store: SessionStore; health: JournalHealth };
  /** `--restore-pending-approvals`: re-asked tool approvals are answered from the journal too. */
  journalApprovals?: boolean;
};

export function relaySessionUpdate(
  deps: ChildRelayDeps,
  sessionId: string,
  update: SessionUpdatePayload,
): void {
  // Undefined: a session the daemon already closed.
  deps.registry.getAny(sessionId)?.receiveUpdate(update);
}

export async function relayPermissionRequest(
  deps: ChildRelayDeps,
  params: PermissionRequestParams,
  signal: AbortSignal,
): Promise<PermissionResponse> {
  const { registry, mediator, clock } = deps;
  const session = registry.get(params.sessionId);
  if (session === undefined) {
    deps.log(`qwen serve: permission request for unknown or loading session ${params.sessionId}; cancelled`);
    return CANCELLED_SESSION_CLOSED;
  }
  const requestId = (deps.newId ?? randomUUID)();
  // Looked up before the request is registered: registering shows it (SSE, status, notifications). Only a
  // restore prompt's requests wait for the lookup; every other request is registered without a pause.
  let journaled: PermissionDecision | undefined;
  if (mayBeJournaled(deps, session, params.toolCall)) {
    journaled = await journaledAnswer(deps, session, { requestId, toolCall: params.toolCall });
    // The session may have closed, or the child withdrawn its request, while the journal was read.
    if (signal.aborted || registry.get(session.sessionId) !== session) return CANCELLED_SESSION_CLOSED;
  }
  const active = session.queue.active;
  const request = {
    sessionId: session.sessionId,
    requestId,
    toolCall: params.toolCall,
    // Loosely validated at the ACP boundary: the options go to clients exactly as the child sent them.
    options: params.options,
    ...(active !== undefined ? { promptId: active.promptId } : {}),
    ...(active?.originatorClientId !== undefined ? { originatorClientId: active.originatorClientId } : {}),
    attachedClientIds: session.clients.ids(),
    createdAt: clock.now(),
  };
  if (journaled !== undefined) {
    deps.log(
      `qwen serve: re-hung ${String(params.toolCall.toolCallId)} on ${session.sessionId} answered from the answer journal`,
    );
    session.touch(clock.now());
    return toAcpPermissionResponse(await mediator.answerFromJournal(request, journaled));
  }
  const decision = mediator.request(request);
  // The child withdrew the request (ACP $/cancel_request) or its connection closed.
  const onAbort = () => mediator.cancelRequest(session.sessionId, requestId, "agent_cancelled");
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    const decided = await decision;
    if (decidedByVoter(decided)) await afterTheVoteIsAnswered();
    return toAcpPermissionResponse(decided);
  } finally {
    signal.removeEventListener("abort", onAbort);
    session.touch(clock.now());
  }
}

/**
 * Only a restore prompt re-hangs a question (or an approval) that may have been answered before the restart,
 * so nothing else pays for a journal read.
 */
function mayBeJournaled(
  deps: ChildRelayDeps,
  session: LiveSession,
  toolCall: Record<string, unknown>,
): boolean {
  return (
    deps.answers !== undefined &&
    session.queue.active?.kind === "restore" &&
    journaledCallId(toolCall, { approvals: deps.journalApprovals === true }) !== undefined
  );
}

/** The journal's answer to a request the child re-hangs, if any (see mayBeJournaled). */
async function journaledAnswer(
  deps: ChildRelayDeps,
  session: LiveSession,
  request: { requestId: string; toolCall: Record<string, unknown> },
): Promise<PermissionDecision | undefined> {
  if (deps.answers === undefined) return undefined;
  return journaledDecisionFor(
    { ...deps.answers, log: deps.log },
    { sessionId: session.sessionId, ...request },
    session.workspaceCwd,
    { approvals: deps.journalApprovals === true },
  );
}

/** A choice, or a user's cancel: what a vote (or a link answer) settles; every other cancel has its reason. */
function decidedByVoter(decision: PermissionDecision): boolean {
  return decision.outcome.outcome === "selected" || decision.reason === "user";
}

/**
 * Resolves once the vote that settled the request has had its answer written. A vote settles the request
 * from inside its HTTP handler, and the answer goes out when the handler returns, a few promise steps later in
 * the same turn of the event loop; relaying the decision at once would write to the agent's pipe first, waking
 * the agent, which then competes with the rest of the vote for the CPU. Nothing the agent does is promised
 * before the `200`: the answer is durable in the answer journal by then (docs/restore.md "The guarantees"), and
 * the vote has already changed everything a client can see (pending requests, `permission_resolved`).
 */
function afterTheVoteIsAnswered(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
