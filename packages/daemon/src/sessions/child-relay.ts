// What the child sends on its own, routed to its session: session/update notifications (collected as the
// load replay while a session is opening, published on the bus otherwise) and permission requests
// (registered with the mediator under a fresh requestId; its decision is the ACP answer). A question the
// child re-hangs in a restore prompt may be answered at once from the answer journal (guarantee 5).
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
import type { SessionStore } from "../persisted/session-store.js";
import { replayJournaledAnswer } from "./answer-replay.js";
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
  const active = session.queue.active;
  const decision = mediator.request({
    sessionId: session.sessionId,
    requestId,
    toolCall: params.toolCall,
    // Loosely validated at the ACP boundary: the options go to clients exactly as the child sent them.
    options: params.options,
    ...(active !== undefined ? { promptId: active.promptId } : {}),
    ...(active?.originatorClientId !== undefined ? { originatorClientId: active.originatorClientId } : {}),
    attachedClientIds: session.clients.ids(),
    createdAt: clock.now(),
  });
  // The child withdrew the request (ACP $/cancel_request) or its connection closed.
  const onAbort = () => mediator.cancelRequest(session.sessionId, requestId, "agent_cancelled");
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    // Only a restore prompt re-hangs a question (or approval) that may have been answered before the restart.
    const scope = { approvals: deps.journalApprovals === true };
    if (
      deps.answers !== undefined &&
      active?.kind === "restore" &&
      journaledCallId(params.toolCall, scope) !== undefined
    ) {
      await replayJournaledAnswer(
        { ...deps.answers, mediator, log: deps.log },
        { sessionId: session.sessionId, requestId, toolCall: params.toolCall },
        session.workspaceCwd,
        scope,
      );
    }
    return toAcpPermissionResponse(await decision);
  } finally {
    signal.removeEventListener("abort", onAbort);
    session.touch(clock.now());
  }
}
