// The daemon's session domain, as one facade the routes talk to: creating, attaching, loading and closing
// sessions on the workspace's ACP child, running their prompt queues, relaying the child's updates and
// permission requests, and ending sessions when their child dies. The work lives in the files named for
// it (session-create, session-restore, session-prompts, session-votes, session-clients, session-ending);
// this class builds the shared collaborators once and delegates.
import { randomUUID } from "node:crypto";
import { resolve } from "node:path";
import type { ContentBlock } from "@qwen-daemon/core/protocol";
import { JournalHealth } from "../answers/journal-health.js";
import { KeyedSerializer } from "../answers/keyed-serializer.js";
import { ChildSupervisor } from "../bridge/child-supervisor.js";
import { PermissionMediator, type VoteResult } from "../permission/mediator.js";
import type { SessionStore } from "../persisted/session-store.js";
import { relayPermissionRequest, relaySessionUpdate } from "./child-relay.js";
import type { LiveSession } from "./live-session.js";
import { isIdle } from "./restore-admission.js";
import { type AttachResult, detachClient, heartbeatClient } from "./session-clients.js";
import type { SessionContext } from "./session-context.js";
import { type CreateRequest, createSession, type DefaultCreation } from "./session-create.js";
import {
  closeAllSessions,
  closeSession,
  endSessionsOfDeadChild,
  reapIdleSessions,
  type SessionCloseReason,
} from "./session-ending.js";
import { assertClient, assertSessionId, requireSession, resolveWorkspace } from "./session-lookup.js";
import { type OpenAction, type OpenResult, openSession } from "./session-open.js";
import {
  type ContinueResult,
  cancelPrompt,
  continueLastTurn,
  type PromptAccepted,
  submitPrompt,
} from "./session-prompts.js";
import { SessionRegistry } from "./session-registry.js";
import type { SessionServiceOptions } from "./session-service-options.js";
import { castVote, type SessionVote } from "./session-votes.js";

export type { AttachResult } from "./session-clients.js";
export type { SessionScope } from "./session-create.js";
export type { SessionCloseReason } from "./session-ending.js";
export type { OpenResult } from "./session-open.js";
export type { ContinueResult, PromptAccepted } from "./session-prompts.js";
export type { SessionServiceOptions } from "./session-service-options.js";

export class SessionService {
  readonly workspace: string;
  readonly mediator: PermissionMediator;
  readonly children: ChildSupervisor;
  readonly registry: SessionRegistry;
  readonly store: SessionStore;
  /** Damaged answer-journal lines seen on restores (shown by `/daemon/status`). */
  readonly journalHealth = new JournalHealth();
  readonly #o: SessionServiceOptions;
  readonly #ctx: SessionContext;
  /** A "single"-scope create in progress, so concurrent default creates share one session. */
  readonly #defaultCreation: DefaultCreation = { creating: undefined };
  /** Votes being judged, journaled and applied, one at a time per request. */
  readonly #votesInProgress = new KeyedSerializer();

  constructor(options: SessionServiceOptions) {
    this.#o = options;
    this.workspace = resolve(options.workspace);
    this.store = options.store;
    const newId = options.newId ?? randomUUID;
    this.registry = new SessionRegistry(options.maxSessions);
    this.mediator = new PermissionMediator({
      policy: options.permission.policy,
      ...(options.permission.consensusQuorum !== undefined
        ? { consensusQuorum: options.permission.consensusQuorum }
        : {}),
      timeoutMs: options.permission.timeoutMs,
      clock: options.clock,
      emit: (sessionId, type, data, extra) => this.registry.getAny(sessionId)?.bus.emit(type, data, extra),
      reportError: (error, context) =>
        options.log(`qwen serve: permission mediator: ${context}: ${String(error)}`),
    });
    const relay = {
      registry: this.registry,
      mediator: this.mediator,
      clock: options.clock,
      log: options.log,
      newId,
      answers: { journal: options.answerJournal, store: options.store, health: this.journalHealth },
    };
    this.children = new ChildSupervisor({
      workspace: this.workspace,
      factory: options.channelFactory,
      clock: options.clock,
      log: options.log,
      ...(options.secrets !== undefined ? { secrets: options.secrets } : {}),
      handlers: {
        sessionUpdate: (params) => relaySessionUpdate(relay, params.sessionId, params.update),
        requestPermission: (params, signal) => relayPermissionRequest(relay, params, signal),
      },
      onDeath: (child, death) => endSessionsOfDeadChild(this.#ctx, child, death),
    });
    this.#ctx = {
      options,
      workspace: this.workspace,
      registry: this.registry,
      mediator: this.mediator,
      children: this.children,
      store: this.store,
      newId,
    };
  }

  get restoreAskUserQuestion(): boolean {
    return this.#o.restoreAskUserQuestion;
  }

  get restorePendingApprovals(): boolean {
    return this.#o.restorePendingApprovals === true;
  }

  get limits() {
    return {
      maxSessions: this.#o.maxSessions,
      maxPendingPromptsPerSession: this.#o.maxPendingPromptsPerSession,
      eventRingSize: this.#o.eventRingSize,
      permissionResponseTimeoutMs: this.#o.permission.timeoutMs,
    };
  }

  // ---- lookups (session-lookup.ts) -----------------------------------------------------------

  /** Validates the id's syntax (before any lookup touches disk); throws 400 `invalid_session_id`. */
  assertSessionId(sessionId: string): void {
    assertSessionId(sessionId);
  }

  /** The live session or 404 `session_not_found`. */
  require(sessionId: string): LiveSession {
    return requireSession(this.registry, sessionId);
  }

  /** Throws 400 `invalid_client_id` when a supplied client id is not registered on the session. */
  assertClient(session: LiveSession, clientId: string | undefined): void {
    assertClient(session, clientId);
  }

  /** The workspace a request names (absolute `cwd`, default the daemon's); 400 when it is another one. */
  resolveWorkspace(cwd: unknown): string {
    return resolveWorkspace(this.workspace, cwd);
  }

  // ---- create / restore (session-create.ts, session-restore.ts) ------------------------------

  create(request: CreateRequest, requestedClientId: string | undefined): Promise<AttachResult> {
    return createSession(this.#ctx, this.#defaultCreation, request, requestedClientId);
  }

  /** POST /session/:id/load and /resume (see session-open.ts). */
  open(
    action: OpenAction,
    sessionId: string,
    cwd: string,
    requestedClientId: string | undefined,
  ): Promise<OpenResult> {
    return openSession(this.#ctx, action, sessionId, cwd, requestedClientId);
  }

  // ---- prompts (session-prompts.ts) ----------------------------------------------------------

  /**
   * Admits a client prompt once it is journaled (checks done before the 202); daemon-only `_meta` keys are
   * stripped.
   */
  prompt(
    sessionId: string,
    input: { prompt: ContentBlock[]; deadlineMs?: number | undefined; meta?: unknown },
    clientId: string | undefined,
  ): Promise<PromptAccepted> {
    return submitPrompt(this.#ctx, sessionId, input, clientId);
  }

  /** Cancels the running prompt, if any (204 either way). */
  cancel(sessionId: string, clientId: string | undefined): void {
    cancelPrompt(this.#ctx, sessionId, clientId);
  }

  /** Asks the child whether an interrupted turn can continue; if so runs it as a tracked prompt. */
  continue(sessionId: string, clientId: string | undefined): Promise<ContinueResult> {
    return continueLastTurn(this.#ctx, sessionId, clientId);
  }

  // ---- permission votes (session-votes.ts) ---------------------------------------------------

  /** A vote on a pending permission request; resolves once an answer to a question is journaled. */
  vote(v: SessionVote): Promise<VoteResult> {
    return castVote(this.#ctx, this.#votesInProgress, v);
  }

  // ---- clients (session-clients.ts) ----------------------------------------------------------

  heartbeat(
    sessionId: string,
    clientId: string | undefined,
  ): { sessionId: string; clientId?: string; lastSeenAt: number } {
    const session = this.require(sessionId);
    this.assertClient(session, clientId);
    return heartbeatClient(session, clientId, this.#o.clock);
  }

  detach(sessionId: string, clientId: string | undefined): void {
    const session = this.require(sessionId);
    this.assertClient(session, clientId);
    detachClient(session, clientId, this.#o.clock);
  }

  // ---- closing (session-ending.ts) -----------------------------------------------------------

  /**
   * DELETE /session/:id: like cancel, prompt and vote, a client id that is not attached to the session is
   * refused (400 invalid_client_id), so a caller cannot close someone else's session by naming any id.
   * Without the header it is accepted like those routes are (the reference's clients, e.g. the SDK's
   * `closeSession(id)`, send none). 404 first, so a repeated DELETE stays a 404.
   */
  closeByClient(sessionId: string, clientId: string | undefined): Promise<void> {
    const session = this.require(sessionId);
    this.assertClient(session, clientId);
    return closeSession(this.#ctx, sessionId, "client");
  }

  /** Idle reaping and shutdown (and DELETE, through closeByClient): ends the session and tells the child. */
  close(sessionId: string, reason: SessionCloseReason): Promise<void> {
    return closeSession(this.#ctx, sessionId, reason);
  }

  /** Ends every session (shutdown): pending permissions resolve as session_closed. */
  closeAll(): void {
    closeAllSessions(this.#ctx);
  }

  /**
   * Closes live sessions nobody has touched for `idleMs` (no subscribers, no work, no pending asks), and
   * forgets the clients of the others that have not been seen for as long (and listen on no stream).
   */
  reapIdle(idleMs: number): string[] {
    const reaped = reapIdleSessions(this.#ctx, idleMs);
    const now = this.#o.clock.now();
    for (const session of this.registry.live()) {
      // A session with work under way keeps every client: the one who prompted, or who may answer its
      // waiting question (designated, consensus), must still be known when the answer comes hours later.
      if (!isIdle(session.activity) || this.#ctx.mediator.hasPending(session.sessionId)) continue;
      session.clients.expire(now, idleMs);
    }
    return reaped;
  }
}
