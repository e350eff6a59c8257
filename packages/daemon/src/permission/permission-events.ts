// The events the mediator publishes as a request moves (besides `permission_request`, pending-request.ts):
// their data and envelope, built from its records. The bus checks each against the contract's schema.
import type { DaemonEventData, DaemonEventType, ForbiddenReason } from "@qwen-daemon/core/protocol";
import type { DaemonEventExtra } from "../events/daemon-event.js";
import type { ConsensusProgress } from "./consensus.js";
import type { PendingEntry } from "./pending-request.js";
import type { ResolvedRequest } from "./resolved-requests.js";
import type { PermissionDecision } from "./vote.js";

type Event<T extends DaemonEventType> = { data: DaemonEventData<T>; extra: DaemonEventExtra };

/** How a `permission_resolved` (and its audit entry) marks a decision replayed from the answer journal. */
export const ANSWER_JOURNAL_SOURCE = "answer_journal";

function promptOf(record: { promptId?: string | undefined }): DaemonEventExtra {
  return record.promptId !== undefined ? { promptId: record.promptId } : {};
}

export function resolvedEvent(
  entry: PendingEntry,
  decision: PermissionDecision,
  source: typeof ANSWER_JOURNAL_SOURCE | undefined,
): Event<typeof DaemonEventType.permissionResolved> {
  const { reason, voterClientId: voter, voterDevice } = decision;
  return {
    data: {
      requestId: entry.requestId,
      sessionId: entry.sessionId,
      outcome: decision.outcome,
      ...(voter !== undefined ? { voterClientId: voter } : {}),
      ...(voterDevice !== undefined ? { voterDevice } : {}),
      // Ours: the answers that resolved a question, so every client can show what was answered.
      ...(decision.answers !== undefined ? { answers: decision.answers } : {}),
      ...(reason !== undefined ? { reason } : {}),
      ...(source !== undefined ? { source } : {}),
    },
    extra: {
      ...promptOf(entry),
      // Wire compatibility with the reference: on permission_resolved the envelope's
      // originatorClientId is the VOTER (an alias of data.voterClientId), not the prompt's client.
      ...(voter !== undefined ? { originatorClientId: voter } : {}),
    },
  };
}

export function forbiddenEvent(
  entry: PendingEntry,
  clientId: string | undefined,
  reason: ForbiddenReason,
): Event<typeof DaemonEventType.permissionForbidden> {
  return {
    data: {
      requestId: entry.requestId,
      sessionId: entry.sessionId,
      ...(clientId !== undefined ? { clientId } : {}),
      reason,
    },
    extra: promptOf(entry),
  };
}

export function alreadyResolvedEvent(
  prior: ResolvedRequest,
): Event<typeof DaemonEventType.permissionAlreadyResolved> {
  return {
    data: {
      requestId: prior.requestId,
      sessionId: prior.sessionId,
      outcome: prior.outcome,
      ...(prior.reason !== undefined ? { reason: prior.reason } : {}),
    },
    extra: promptOf(prior),
  };
}

export function partialVoteEvent(
  entry: PendingEntry,
  progress: Extract<ConsensusProgress, { decided: false }>,
): Event<typeof DaemonEventType.permissionPartialVote> {
  return {
    data: {
      requestId: entry.requestId,
      sessionId: entry.sessionId,
      votesReceived: progress.votesReceived,
      votesNeeded: progress.votesNeeded,
      quorum: progress.quorum,
      optionTallies: progress.optionTallies,
    },
    extra: promptOf(entry),
  };
}
