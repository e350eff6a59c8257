// The permission mediator: the state machine of pending requests and the votes that settle them. The
// shapes it works with live beside it (pending-request.ts, vote-result.ts, mediator-options.ts), as do the
// judgement of a vote (vote-judgement.ts), the events it publishes (permission-events.ts) and the policies
// it judges by (policies.ts); the shapes are re-exported here so importers keep one address.
import type { ForbiddenReason } from "@qwen-daemon/core/protocol";
import { type DaemonEventData, DaemonEventType } from "@qwen-daemon/core/protocol";
import type { Clock } from "../events/clock.js";
import { systemClock } from "../events/clock.js";
import type { DaemonEventExtra, DaemonEventLike } from "../events/daemon-event.js";
import { type AuditEntry, PermissionAuditLog } from "./audit-log.js";
import type { ConsensusTally } from "./consensus.js";
import type { PermissionEmit, PermissionMediatorOptions } from "./mediator-options.js";
import {
  DuplicatePermissionRequestError,
  type PendingEntry,
  type PendingPermission,
  type PermissionRequest,
  permissionRequestData,
  publicView,
} from "./pending-request.js";
import {
  ANSWER_JOURNAL_SOURCE,
  alreadyResolvedEvent,
  forbiddenEvent,
  partialVoteEvent,
  resolvedEvent,
} from "./permission-events.js";
import { DEFAULT_PERMISSION_POLICY, permissionPolicy } from "./policies.js";
import { PermissionPolicy } from "./policy.js";
import { ResolvedRequests } from "./resolved-requests.js";
import type { CancelReason, PermissionDecision } from "./vote.js";
import { judgeVote } from "./vote-judgement.js";
import {
  forbiddenResult,
  invalidOptionResult,
  notPendingResult,
  type PermissionVote,
  type VoteCheck,
  type VoteResult,
  voterFields,
} from "./vote-result.js";

export type { PermissionEmit, PermissionMediatorOptions } from "./mediator-options.js";
export {
  DuplicatePermissionRequestError,
  type PendingPermission,
  type PermissionRequest,
} from "./pending-request.js";
export { ANSWER_JOURNAL_SOURCE } from "./permission-events.js";
export type { PermissionVote, VoteCheck, VoteResult } from "./vote-result.js";

/**
 * Decides who may answer the agent's permission requests (tool approvals and
 * ask_user_question) and turns votes into one decision per request.
 *
 * Pure logic: timers come from the injected clock and events leave through `emit`. Each
 * session's requests live in their own map and settle independently. The policy is read
 * when a request is registered and kept with it, so changing policy never re-judges a
 * request in flight. The promise returned by `request` never rejects: every way a request
 * can end (vote, cancel, timeout, session close) is a {@link PermissionDecision}.
 */
/** How a request made after `dispose` settles (a fresh object each time: callers own what they get). */
const sessionClosed = (): PermissionDecision => ({
  outcome: { outcome: "cancelled" },
  reason: "session_closed",
});

export class PermissionMediator {
  #policy: PermissionPolicy;
  readonly consensusQuorum: number | undefined;
  readonly timeoutMs: number;
  readonly #clock: Clock;
  readonly #emit: PermissionEmit;
  readonly #reportError: (error: unknown, context: string) => void;
  readonly #pending = new Map<string, Map<string, PendingEntry>>();
  readonly #resolved: ResolvedRequests;
  readonly #audit: PermissionAuditLog;
  #disposed = false;

  constructor(options: PermissionMediatorOptions) {
    const { consensusQuorum, timeoutMs = 0 } = options;
    if (consensusQuorum !== undefined && (!Number.isInteger(consensusQuorum) || consensusQuorum < 1)) {
      throw new RangeError(`consensusQuorum must be a positive integer, got ${consensusQuorum}`);
    }
    if (!Number.isFinite(timeoutMs) || timeoutMs < 0) {
      throw new RangeError(`timeoutMs must be >= 0 (0 = wait forever), got ${timeoutMs}`);
    }
    this.#policy = options.policy ?? DEFAULT_PERMISSION_POLICY;
    this.consensusQuorum = consensusQuorum;
    this.timeoutMs = timeoutMs;
    this.#clock = options.clock ?? systemClock;
    this.#emit = options.emit;
    this.#reportError =
      options.reportError ?? ((error, context) => console.error(`permission mediator: ${context}`, error));
    this.#resolved = new ResolvedRequests(options.resolvedCapacity);
    this.#audit = new PermissionAuditLog(options.auditCapacity);
  }

  /** The policy new requests are registered under. */
  get policy(): PermissionPolicy {
    return this.#policy;
  }

  /** Changes the policy for requests registered from now on; pending ones keep theirs. */
  setPolicy(policy: PermissionPolicy): void {
    this.#policy = PermissionPolicy.parse(policy);
  }

  /**
   * Registers the request SYNCHRONOUSLY (so a session cancelled right after cannot leak it),
   * emits `permission_request`, and returns the decision to come. After `dispose` it settles
   * at once as cancelled/session_closed without being registered.
   * Throws DuplicatePermissionRequestError if the same id is already pending on the session.
   */
  request(req: PermissionRequest): Promise<PermissionDecision> {
    if (this.#disposed) return Promise.resolve(sessionClosed());
    const { entry, decision } = this.#register(req);
    this.#safeEmit(entry.sessionId, DaemonEventType.permissionRequest, permissionRequestData(entry), {
      ...(entry.promptId !== undefined ? { promptId: entry.promptId } : {}),
      ...(entry.originatorClientId !== undefined ? { originatorClientId: entry.originatorClientId } : {}),
    });
    return decision;
  }

  /**
   * A request that an answer a user gave before a restart (the daemon's answer journal) already answers:
   * registered and resolved in one synchronous step, so no client ever sees it waiting: no
   * `permission_request`, nothing in `pending()` or in a subscriber's snapshot. No policy applies (that vote
   * already passed it). Emits the usual `permission_resolved`, marked `source: "answer_journal"`, and the audit
   * keeps both steps; a vote on its id is "already resolved".
   */
  answerFromJournal(req: PermissionRequest, journaled: PermissionDecision): Promise<PermissionDecision> {
    if (this.#disposed) return Promise.resolve(sessionClosed());
    const { entry, decision } = this.#register(req);
    this.#settle(entry, journaled, ANSWER_JOURNAL_SOURCE);
    return decision;
  }

  /** Adds the request to its session's pending map (audited, timer armed) without telling anyone. */
  #register(req: PermissionRequest): { entry: PendingEntry; decision: Promise<PermissionDecision> } {
    const session = this.#sessionMap(req.sessionId);
    if (session.has(req.requestId)) throw new DuplicatePermissionRequestError(req.sessionId, req.requestId);

    let settle!: (decision: PermissionDecision) => void;
    const decision = new Promise<PermissionDecision>((resolve) => {
      settle = resolve;
    });
    const policy = this.#policy;
    const tally = permissionPolicy(policy)?.tally?.(req.attachedClientIds, this.consensusQuorum);
    const entry: PendingEntry = {
      requestId: req.requestId,
      sessionId: req.sessionId,
      toolCall: req.toolCall,
      options: req.options,
      createdAt: req.createdAt ?? this.#clock.now(),
      ...(req.originatorClientId !== undefined ? { originatorClientId: req.originatorClientId } : {}),
      ...(req.promptId !== undefined ? { promptId: req.promptId } : {}),
      policy,
      optionIds: new Set(req.options.map((o) => o.optionId)),
      ...(tally !== undefined ? { tally } : {}),
      settle,
    };
    session.set(req.requestId, entry);
    this.#resolved.forget(req.sessionId, req.requestId);
    this.#record(entry, "requested", {
      ...(entry.tally !== undefined ? { electorate: [...entry.tally.electorate] } : {}),
    });
    if (this.timeoutMs > 0) {
      entry.timer = this.#clock.setTimeout(() => this.#timeout(entry), this.timeoutMs);
    }
    return { entry, decision };
  }

  /**
   * Applies one vote. Order of judgement: unknown / other session / already resolved (not pending) →
   * cancel (bypasses every policy, reason `user`) → option not offered → policy (forbidden) →
   * accepted (possibly only a partial consensus vote).
   */
  vote(v: PermissionVote): VoteResult {
    return this.commitVote(v);
  }

  /**
   * Judges a vote like `vote` but resolves nothing, so a caller can make the answer durable between
   * judging and applying it (docs/restore.md "The guarantees"). A refusal is final: it is reported (audit,
   * `permission_forbidden` / `permission_already_resolved`) here and its result is the answer to send.
   * An acceptance changes no state; `commitVote` applies it (and judges again: the request may have
   * ended in between). `decides` carries the decision the vote would settle; `partial` is a consensus
   * vote that would only be counted.
   */
  checkVote(v: PermissionVote): VoteCheck {
    const judged = this.#judge(v);
    if ("refused" in judged) return { kind: "refused", result: judged.refused };
    if (judged.partial) return { kind: "partial" };
    return { kind: "decides", request: publicView(judged.entry), decision: judged.decision };
  }

  /** Applies one vote (see `vote`, which is this). */
  commitVote(v: PermissionVote): VoteResult {
    const judged = this.#judge(v);
    if ("refused" in judged) return judged.refused;
    const { entry } = judged;
    if (judged.partial) {
      // #judge established: consensus, a member of the electorate, an offered option, no quorum yet.
      const optionId = (v.outcome as { optionId: string }).optionId;
      const progress = (entry.tally as ConsensusTally).cast(v.clientId as string, optionId);
      if (!progress.decided) {
        this.#record(entry, "voted", { ...voterFields(v), optionId, reason: "partial" });
        const { data, extra } = partialVoteEvent(entry, progress);
        this.#safeEmit(entry.sessionId, DaemonEventType.permissionPartialVote, data, extra);
        return { kind: "recorded" };
      }
      // (wouldDecide and cast count alike, so this only runs if they ever disagree: the quorum wins.)
    }
    const { decision } = judged;
    this.#record(entry, "voted", {
      ...voterFields(v),
      ...(decision.outcome.outcome === "selected"
        ? { optionId: decision.outcome.optionId, outcome: "selected" as const }
        : { outcome: "cancelled" as const }),
    });
    // A deciding consensus vote is not cast into the tally: the request is settled and the tally dropped.
    this.#settle(entry, decision);
    return { kind: "resolved" };
  }

  /** Resolves every pending request of the session as cancelled; returns how many. */
  cancelSession(sessionId: string, reason: "session_closed" | "agent_cancelled"): number {
    const entries = [...(this.#pending.get(sessionId)?.values() ?? [])];
    for (const entry of entries) this.#settle(entry, { outcome: { outcome: "cancelled" }, reason });
    return entries.length;
  }

  /** Resolves the session's pending requests raised by one prompt (the prompt ended or was cancelled). */
  cancelPrompt(sessionId: string, promptId: string, reason: CancelReason): number {
    const entries = [...(this.#pending.get(sessionId)?.values() ?? [])].filter(
      (e) => e.promptId === promptId,
    );
    for (const entry of entries) this.#settle(entry, { outcome: { outcome: "cancelled" }, reason });
    return entries.length;
  }

  /** Resolves one request as cancelled (e.g. the agent withdrew it); false if it was not pending. */
  cancelRequest(sessionId: string, requestId: string, reason: CancelReason): boolean {
    const entry = this.#pending.get(sessionId)?.get(requestId);
    if (entry === undefined) return false;
    this.#settle(entry, { outcome: { outcome: "cancelled" }, reason });
    return true;
  }

  /** The session's waiting requests, oldest first. */
  pending(sessionId: string): PendingPermission[] {
    return [...(this.#pending.get(sessionId)?.values() ?? [])].map(publicView);
  }

  hasPending(sessionId: string): boolean {
    return (this.#pending.get(sessionId)?.size ?? 0) > 0;
  }

  /** Waiting requests across all sessions (diagnostics). */
  get pendingCount(): number {
    let count = 0;
    for (const session of this.#pending.values()) count += session.size;
    return count;
  }

  /**
   * The session's waiting requests as `permission_request` events, for the `initial` snapshot
   * of an SSE subscriber without a cursor: a late client still learns of a waiting question.
   */
  pendingRequestEvents(sessionId: string): DaemonEventLike[] {
    return [...(this.#pending.get(sessionId)?.values() ?? [])].map((entry) => ({
      type: DaemonEventType.permissionRequest,
      data: permissionRequestData(entry),
      ...(entry.promptId !== undefined ? { promptId: entry.promptId } : {}),
      ...(entry.originatorClientId !== undefined ? { originatorClientId: entry.originatorClientId } : {}),
    }));
  }

  /** The bounded audit trail, oldest first. */
  audit(): readonly AuditEntry[] {
    return this.#audit.entries();
  }

  /** Shutdown: resolves everything pending as session_closed, stops all timers; later requests settle at once. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    for (const sessionId of [...this.#pending.keys()]) this.cancelSession(sessionId, "session_closed");
  }

  #sessionMap(sessionId: string): Map<string, PendingEntry> {
    let session = this.#pending.get(sessionId);
    if (session === undefined) {
      session = new Map();
      this.#pending.set(sessionId, session);
    }
    return session;
  }

  #findPending(sessionId: string | undefined, requestId: string): PendingEntry | undefined {
    if (sessionId !== undefined) return this.#pending.get(sessionId)?.get(requestId);
    for (const session of this.#pending.values()) {
      const entry = session.get(requestId);
      if (entry !== undefined) return entry;
    }
    return undefined;
  }

  #notPending(v: PermissionVote): VoteResult {
    const prior =
      v.sessionId !== undefined
        ? this.#resolved.get(v.sessionId, v.requestId)
        : this.#resolved.findByRequestId(v.requestId);
    if (prior !== undefined) {
      const { data, extra } = alreadyResolvedEvent(prior);
      this.#safeEmit(prior.sessionId, DaemonEventType.permissionAlreadyResolved, data, extra);
    }
    return notPendingResult(v, prior !== undefined);
  }

  /**
   * The judgement shared by `checkVote` and `commitVote`. Its only effects are a refusal's reports; an
   * accepted vote leaves everything as it was.
   */
  #judge(
    v: PermissionVote,
  ): { refused: VoteResult } | { entry: PendingEntry; partial: boolean; decision: PermissionDecision } {
    const entry = this.#findPending(v.sessionId, v.requestId);
    if (entry === undefined) return { refused: this.#notPending(v) };
    const judged = judgeVote(entry, v);
    if (judged.refused === "invalid_option") return { refused: invalidOptionResult(entry, judged.optionId) };
    if (judged.refused === "forbidden") return { refused: this.#forbid(entry, v, judged.reason) };
    return { entry, partial: judged.partial, decision: judged.decision };
  }

  #forbid(entry: PendingEntry, v: PermissionVote, reason: ForbiddenReason): VoteResult {
    this.#record(entry, "forbidden", { ...voterFields(v), reason });
    const { data, extra } = forbiddenEvent(entry, v.clientId, reason);
    this.#safeEmit(entry.sessionId, DaemonEventType.permissionForbidden, data, extra);
    return forbiddenResult(entry, reason);
  }

  #timeout(entry: PendingEntry): void {
    if (this.#pending.get(entry.sessionId)?.get(entry.requestId) !== entry) return;
    this.#record(entry, "timeout", {});
    this.#settle(entry, { outcome: { outcome: "cancelled" }, reason: "timeout" });
  }

  /**
   * The one way out of pending. State moves first (timer cleared, entry removed, id remembered
   * as resolved), then the event, then the agent's promise: a listener that votes again from
   * inside `emit` already sees "already resolved".
   */
  #settle(entry: PendingEntry, decision: PermissionDecision, source?: typeof ANSWER_JOURNAL_SOURCE): void {
    const session = this.#pending.get(entry.sessionId);
    if (session?.get(entry.requestId) !== entry) return;
    if (entry.timer !== undefined) this.#clock.clearTimeout(entry.timer);
    session.delete(entry.requestId);
    if (session.size === 0) this.#pending.delete(entry.sessionId);
    const reason = decision.reason;
    this.#resolved.remember({
      sessionId: entry.sessionId,
      requestId: entry.requestId,
      outcome: decision.outcome,
      ...(reason !== undefined ? { reason } : {}),
      ...(entry.promptId !== undefined ? { promptId: entry.promptId } : {}),
    });
    this.#record(entry, "resolved", {
      outcome: decision.outcome.outcome,
      ...(decision.outcome.outcome === "selected" ? { optionId: decision.outcome.optionId } : {}),
      ...(reason !== undefined ? { reason } : {}),
      ...(decision.voterClientId !== undefined ? { clientId: decision.voterClientId } : {}),
      ...(source !== undefined ? { source } : {}),
    });
    const { data, extra } = resolvedEvent(entry, decision, source);
    this.#safeEmit(entry.sessionId, DaemonEventType.permissionResolved, data, extra);
    entry.settle(decision);
  }

  #record(entry: PendingEntry, kind: AuditEntry["kind"], fields: Partial<AuditEntry>): void {
    this.#audit.record({
      at: this.#clock.now(),
      kind,
      sessionId: entry.sessionId,
      requestId: entry.requestId,
      policy: entry.policy,
      ...fields,
    });
  }

  // A broken subscriber or bus must not leave the agent's request hanging: the error is
  // reported and the state change it accompanied still completes.
  #safeEmit<T extends DaemonEventType>(
    sessionId: string,
    type: T,
    data: DaemonEventData<T>,
    extra: DaemonEventExtra,
  ): void {
    try {
      this.#emit(sessionId, type, data, extra);
    } catch (error) {
      this.#reportError(error, `emit of ${type} for session ${sessionId} failed`);
    }
  }
}
