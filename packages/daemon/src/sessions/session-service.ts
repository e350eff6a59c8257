// The daemon's session domain: creating, attaching, loading and closing sessions on the workspace's ACP
// child, running their prompt queues, relaying the child's updates and permission requests, and ending
// sessions when their child dies. Routes are thin adapters over this class.
import { randomUUID } from "node:crypto";
import { realpathSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { isValidSessionId } from "@qwen-daemon/core";
import type { AnswerJournal } from "../answers/answer-journal.js";
import { KeyedSerializer } from "../answers/keyed-serializer.js";
import type { AcpChild, ChildDeath } from "../bridge/acp-child.js";
import type { ChannelFactory } from "../bridge/channel.js";
import { ChildSupervisor } from "../bridge/child-supervisor.js";
import type { Clock } from "../events/clock.js";
import type { DaemonEvent } from "../events/daemon-event.js";
import { SessionEventBus } from "../events/event-bus.js";
import { DaemonEventType } from "../events/registry.js";
import {
  cwdNotAbsolute,
  invalidSessionId,
  invalidSessionScope,
  sessionIdConflict,
  sessionNotFound,
  unregisteredClientId,
  workspaceMismatch,
} from "../http/errors.js";
import { PermissionMediator, type VoteResult } from "../permission/mediator.js";
import type { PermissionPolicy } from "../permission/policy.js";
import type { VoteOutcome } from "../permission/vote.js";
import type { PersistedSession, SessionStore } from "../persisted/session-store.js";
import { httpErrorFromChild, isMethodNotFound } from "./child-errors.js";
import { relayPermissionRequest, relaySessionUpdate } from "./child-relay.js";
import {
  CONTINUE_LAST_TURN_META_KEY,
  type Meta,
  PROMPT_ID_META_KEY,
  REQUESTED_SESSION_ID_META_KEY,
  SUPPRESS_RESTORE_ASK_USER_QUESTION_META_KEY,
  stripBlockMeta,
  stripDaemonMeta,
} from "./daemon-meta.js";
import { voteDurably } from "./durable-vote.js";
import { LiveSession } from "./live-session.js";
import { replayEvents } from "./load-replay.js";
import { type ContentBlock, PromptQueue } from "./prompt-queue.js";
import { type PromptTerminal, promptTerminalsOf } from "./prompt-terminals.js";
import { isIdle, knownRestoreRefusal } from "./restore-admission.js";
import { admitRestorePrompt } from "./restore-prompt.js";
import { SessionRegistry } from "./session-registry.js";
import { turnHost } from "./turn-host.js";

export type SessionServiceOptions = {
  workspace: string;
  restoreAskUserQuestion: boolean;
  maxSessions: number;
  maxPendingPromptsPerSession: number;
  eventRingSize: number;
  permission: { policy: PermissionPolicy; consensusQuorum?: number | undefined; timeoutMs: number };
  channelFactory: ChannelFactory;
  store: SessionStore;
  /** Where answers to questions are made durable before a vote is acknowledged (RESTORE-SPEC guarantee 5). */
  answerJournal: AnswerJournal;
  clock: Clock;
  log: (line: string) => void;
  /** Literal secrets redacted from child stderr (the daemon token). */
  secrets?: readonly string[];
  newId?: () => string;
  mintClientId?: () => string;
};

export type SessionScope = "single" | "thread";

export type AttachResult = {
  sessionId: string;
  workspaceCwd: string;
  attached: boolean;
  clientId: string;
  createdAt: string;
};

export type RestoreResult = AttachResult & {
  hasActivePrompt: boolean;
  compactedReplay?: DaemonEvent[];
  lastEventId: number;
  eventEpoch: string;
  /** How the session's recent prompts ended (its prompt ledger); absent when none has ended. */
  promptTerminals?: PromptTerminal[];
};

export type PromptAccepted = { promptId: string; lastEventId: number; eventEpoch: string };

export type ContinueResult = {
  accepted: boolean;
  interruption: string;
  promptId?: string;
  lastEventId: number;
  eventEpoch: string;
};

export type SessionCloseReason = "client" | "idle_timeout" | "shutdown";

export class SessionService {
  readonly workspace: string;
  readonly mediator: PermissionMediator;
  readonly children: ChildSupervisor;
  readonly registry: SessionRegistry;
  readonly store: SessionStore;
  readonly #o: SessionServiceOptions;
  readonly #newId: () => string;
  /** A "single"-scope create in progress, so concurrent default creates share one session. */
  #creatingDefault: Promise<LiveSession> | undefined;
  /** Votes being judged, journaled and applied, one at a time per request. */
  readonly #votesInProgress = new KeyedSerializer();

  constructor(options: SessionServiceOptions) {
    this.#o = options;
    this.workspace = resolve(options.workspace);
    this.store = options.store;
    this.#newId = options.newId ?? randomUUID;
    this.registry = new SessionRegistry(options.maxSessions);
    this.mediator = new PermissionMediator({
      policy: options.permission.policy,
      ...(options.permission.consensusQuorum !== undefined
        ? { consensusQuorum: options.permission.consensusQuorum }
        : {}),
      timeoutMs: options.permission.timeoutMs,
      clock: options.clock,
      emit: (sessionId, type, data, extra) => this.registry.getAny(sessionId)?.bus.publish(type, data, extra),
      reportError: (error, context) =>
        options.log(`qwen serve: permission mediator: ${context}: ${String(error)}`),
    });
    const relay = {
      registry: this.registry,
      mediator: this.mediator,
      clock: options.clock,
      log: options.log,
      newId: this.#newId,
      answers: { journal: options.answerJournal, store: options.store },
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
      onDeath: (child, death) => this.#onChildDeath(child, death),
    });
  }

  get restoreAskUserQuestion(): boolean {
    return this.#o.restoreAskUserQuestion;
  }

  get limits() {
    return {
      maxSessions: this.#o.maxSessions,
      maxPendingPromptsPerSession: this.#o.maxPendingPromptsPerSession,
      eventRingSize: this.#o.eventRingSize,
      permissionResponseTimeoutMs: this.#o.permission.timeoutMs,
    };
  }

  // ---- lookups -------------------------------------------------------------------------------

  /** Validates the id's syntax (before any lookup touches disk); throws 400 `invalid_session_id`. */
  assertSessionId(sessionId: string): void {
    if (!isValidSessionId(sessionId)) throw invalidSessionId(sessionId);
  }

  /** The live session or 404 `session_not_found`. */
  require(sessionId: string): LiveSession {
    const session = this.registry.get(sessionId);
    if (session === undefined) throw sessionNotFound(sessionId);
    return session;
  }

  /** Throws 400 `invalid_client_id` when a supplied client id is not registered on the session. */
  assertClient(session: LiveSession, clientId: string | undefined): void {
    if (clientId !== undefined && !session.clients.has(clientId)) {
      throw unregisteredClientId(session.sessionId, clientId);
    }
  }

  /** The workspace a request names (absolute `cwd`, default the daemon's); 400 when it is another one. */
  resolveWorkspace(cwd: unknown): string {
    if (cwd === undefined) return this.workspace;
    if (typeof cwd !== "string" || !isAbsolute(cwd)) throw cwdNotAbsolute();
    const requested = resolve(cwd);
    if (requested === this.workspace) return this.workspace;
    // The same folder reached through a symlink is the same workspace.
    if (canonicalPath(requested) === canonicalPath(this.workspace)) return this.workspace;
    throw workspaceMismatch(this.workspace, requested);
  }

  // ---- create / attach / restore -------------------------------------------------------------

  async create(
    body: { cwd?: unknown; sessionScope?: unknown; sessionId?: unknown },
    requestedClientId: string | undefined,
  ): Promise<AttachResult> {
    const cwd = this.resolveWorkspace(body.cwd);
    const scope = parseScope(body.sessionScope);
    const requestedId = body.sessionId;
    if (requestedId !== undefined) {
      if (typeof requestedId !== "string") throw invalidSessionId(String(requestedId));
      this.assertSessionId(requestedId);
      if (this.registry.isTaken(requestedId) || (await this.store.get(cwd, requestedId)) !== undefined) {
        throw sessionIdConflict(requestedId);
      }
      return this.#attach(await this.#createSession(cwd, requestedId, false), requestedClientId, true);
    }
    if (scope === "thread")
      return this.#attach(await this.#createSession(cwd, undefined, false), requestedClientId, true);
    const existing = this.#defaultSession();
    if (existing !== undefined) return this.#attach(existing, requestedClientId, false);
    const creating = this.#creatingDefault;
    if (creating !== undefined) return this.#attach(await creating, requestedClientId, false);
    const created = this.#createSession(cwd, undefined, true);
    this.#creatingDefault = created;
    try {
      return this.#attach(await created, requestedClientId, true);
    } finally {
      this.#creatingDefault = undefined;
    }
  }

  /**
   * POST /session/:id/load and /resume. A live session is attached to (no child call). Otherwise the
   * child restores it; for a load, the history it replays becomes `compactedReplay` (ids 1..n). Then
   * RESTORE-SPEC step 4 decides whether to admit a tracked restore prompt. Both carry `promptTerminals`
   * from the session's prompt ledger (the reference daemon adds them to loads only; PROTOCOL has resume
   * answer like load, and a resuming client may as well have been waiting for a prompt).
   */
  async restore(
    action: "load" | "resume",
    sessionId: string,
    body: { cwd?: unknown },
    requestedClientId: string | undefined,
  ): Promise<RestoreResult> {
    this.assertSessionId(sessionId);
    const cwd = this.resolveWorkspace(body.cwd);
    const inFlight = this.registry.restoring(sessionId);
    if (inFlight !== undefined) await inFlight.then(noop, noop);
    const live = this.registry.get(sessionId);
    if (live !== undefined) {
      const attached = this.#attachForRestore(action, live, requestedClientId, false);
      return withPromptTerminals(attached, await this.#promptTerminals(cwd, sessionId));
    }
    return this.registry.trackRestore(
      sessionId,
      this.#restoreFromChild(action, sessionId, cwd, requestedClientId),
    );
  }

  #attachForRestore(
    action: "load" | "resume",
    session: LiveSession,
    requested: string | undefined,
    restored: boolean,
  ): RestoreResult {
    const attach = this.#attach(session, requested, restored);
    return {
      ...attach,
      hasActivePrompt: session.hasActivePrompt,
      ...(action === "load" ? { compactedReplay: session.replay } : {}),
      lastEventId: session.historyLastEventId,
      eventEpoch: session.bus.epoch,
    };
  }

  async #restoreFromChild(
    action: "load" | "resume",
    sessionId: string,
    cwd: string,
    requestedClientId: string | undefined,
  ): Promise<RestoreResult> {
    const release = this.registry.reserve();
    let session: LiveSession | undefined;
    try {
      const child = await this.children.ensure();
      session = this.#newSession(sessionId, cwd, child);
      this.registry.addLoading(session);
      const refusal = knownRestoreRefusal({
        switchOn: this.#o.restoreAskUserQuestion,
        requestedClientId,
        activity: session.activity,
      });
      const meta =
        refusal === undefined ? undefined : { [SUPPRESS_RESTORE_ASK_USER_QUESTION_META_KEY]: true };
      let response: { _meta?: Meta | null };
      try {
        response =
          action === "load"
            ? await child.loadSession(sessionId, cwd, meta)
            : await child.resumeSession(sessionId, cwd, meta);
      } catch (error) {
        throw httpErrorFromChild(error, sessionId);
      }
      // Read after the child's load: a load that repairs the session closes its dead prompts in the ledger
      // (daemon_lost) before answering. Read before the restore prompt is admitted, so an original prompt
      // that the restore is about to take over is reported (by its absence) the same way every time.
      const [persisted, terminals] = await Promise.all([
        this.#persistedSession(cwd, sessionId),
        this.#promptTerminals(cwd, sessionId),
      ]);
      if (session.phase === "ended")
        throw httpErrorFromChild(new Error("the agent process ended"), sessionId);
      if (persisted !== undefined) session.adoptPersisted(persisted);
      const replay = action === "load" ? replayEvents(sessionId, session.collected) : [];
      session.collected.length = 0;
      session.replay = replay;
      session.bus.advanceTo(replay.length);
      this.registry.promote(session);
      release();
      const result = this.#attachForRestore(action, session, requestedClientId, true);
      const admitted = admitRestorePrompt({
        session,
        responseMeta: response._meta,
        switchOn: this.#o.restoreAskUserQuestion,
        requestedClientId,
        clientId: result.clientId,
        newId: this.#newId,
        log: this.#o.log,
      });
      return withPromptTerminals(
        { ...result, hasActivePrompt: result.hasActivePrompt || admitted },
        terminals,
      );
    } catch (error) {
      if (session !== undefined && session.phase === "loading") this.#discard(session);
      throw error;
    } finally {
      release();
    }
  }

  /**
   * The recent prompt terminals on disk. A ledger that cannot be read costs the client this hint, not the
   * load it asked for (the reference reads it the same way): logged, and the field is left out.
   */
  async #promptTerminals(cwd: string, sessionId: string): Promise<PromptTerminal[] | undefined> {
    try {
      return promptTerminalsOf(await this.store.readPromptLedger(cwd, sessionId));
    } catch (error) {
      this.#o.log(`qwen serve: reading the prompt ledger of ${sessionId} failed: ${String(error)}`);
      return undefined;
    }
  }

  /** What the transcript says about a session being restored (undefined when unreadable: logged). */
  async #persistedSession(cwd: string, sessionId: string): Promise<PersistedSession | undefined> {
    try {
      return await this.store.get(cwd, sessionId);
    } catch (error) {
      this.#o.log(`qwen serve: reading the transcript summary of ${sessionId} failed: ${String(error)}`);
      return undefined;
    }
  }

  async #createSession(
    cwd: string,
    requestedId: string | undefined,
    makeDefault: boolean,
  ): Promise<LiveSession> {
    const release = this.registry.reserve();
    try {
      const child = await this.children.ensure();
      let response: { sessionId: string };
      try {
        response = await child.newSession(
          cwd,
          requestedId !== undefined ? { [REQUESTED_SESSION_ID_META_KEY]: requestedId } : undefined,
        );
      } catch (error) {
        throw httpErrorFromChild(error);
      }
      if (requestedId !== undefined && response.sessionId !== requestedId) {
        this.#o.log(
          `qwen serve: agent ignored the requested session id ${requestedId} and created ${response.sessionId}`,
        );
      }
      if (this.registry.isTaken(response.sessionId)) {
        throw sessionIdConflict(response.sessionId);
      }
      const session = this.#newSession(response.sessionId, cwd, child);
      this.registry.promote(session);
      if (makeDefault) this.registry.defaultSessionId = session.sessionId;
      return session;
    } finally {
      release();
    }
  }

  #newSession(sessionId: string, cwd: string, child: AcpChild): LiveSession {
    const { clock } = this.#o;
    const session = new LiveSession({
      sessionId,
      workspaceCwd: cwd,
      child,
      now: clock.now(),
      bus: new SessionEventBus({
        ringSize: this.#o.eventRingSize,
        clock,
        reportError: (error, context) =>
          this.#o.log(`qwen serve: event bus of ${sessionId}: ${context}: ${String(error)}`),
      }),
      ...(this.#o.mintClientId !== undefined ? { mintClientId: this.#o.mintClientId } : {}),
    });
    session.queue = new PromptQueue({
      sessionId,
      maxPending: this.#o.maxPendingPromptsPerSession,
      clock,
      publish: (type, data, extra) => session.bus.publish(type, data, extra),
      ...turnHost(session, { mediator: this.mediator, clock, log: this.#o.log }),
    });
    return session;
  }

  #defaultSession(): LiveSession | undefined {
    const id = this.registry.defaultSessionId;
    return id === undefined ? undefined : this.registry.get(id);
  }

  #attach(session: LiveSession, requestedClientId: string | undefined, created: boolean): AttachResult {
    const now = this.#o.clock.now();
    const clientId = session.clients.attach(requestedClientId, now);
    session.touch(now);
    return {
      sessionId: session.sessionId,
      workspaceCwd: session.workspaceCwd,
      attached: !created,
      clientId,
      createdAt: session.createdAt,
    };
  }

  // ---- prompts -------------------------------------------------------------------------------

  /** Admits a client prompt (checks done before the 202); daemon-only `_meta` keys are stripped. */
  prompt(
    sessionId: string,
    input: { prompt: ContentBlock[]; deadlineMs?: number | undefined; meta?: unknown },
    clientId: string | undefined,
  ): PromptAccepted {
    const session = this.require(sessionId);
    this.assertClient(session, clientId);
    const lastEventId = session.bus.lastEventId;
    const promptId = this.#newId();
    const blocks = input.prompt.map((block) => stripBlockMeta(block));
    session.queue.admit({
      promptId,
      kind: "user",
      text: promptText(blocks),
      prompt: blocks,
      meta: { ...stripDaemonMeta(input.meta), [PROMPT_ID_META_KEY]: promptId },
      originatorClientId: clientId,
      deadlineMs: input.deadlineMs,
    });
    session.touch(this.#o.clock.now());
    return { promptId, lastEventId, eventEpoch: session.bus.epoch };
  }

  /** Cancels the running prompt, if any (204 either way). */
  cancel(sessionId: string, clientId: string | undefined): void {
    const session = this.require(sessionId);
    this.assertClient(session, clientId);
    session.queue.cancelActive();
    session.touch(this.#o.clock.now());
  }

  /** Asks the child whether an interrupted turn can continue; if so runs it as a tracked prompt. */
  async continue(sessionId: string, clientId: string | undefined): Promise<ContinueResult> {
    const session = this.require(sessionId);
    this.assertClient(session, clientId);
    const refuse = (interruption: string): ContinueResult => ({
      accepted: false,
      interruption,
      lastEventId: session.bus.lastEventId,
      eventEpoch: session.bus.epoch,
    });
    if (!isIdle(session.activity)) return refuse("none");
    let decision: { accepted: boolean; interruption: string };
    try {
      decision = await session.child.continueLastTurn(sessionId);
    } catch (error) {
      if (isMethodNotFound(error)) return refuse("none");
      throw httpErrorFromChild(error, sessionId);
    }
    const interruption = typeof decision.interruption === "string" ? decision.interruption : "none";
    if (decision.accepted !== true || session.phase !== "live" || !isIdle(session.activity)) {
      return refuse(interruption);
    }
    const lastEventId = session.bus.lastEventId;
    const promptId = this.#newId();
    session.queue.admit({
      promptId,
      kind: "continue",
      text: "",
      prompt: [],
      meta: { [CONTINUE_LAST_TURN_META_KEY]: true, [PROMPT_ID_META_KEY]: promptId },
      originatorClientId: clientId,
    });
    return { accepted: true, interruption, promptId, lastEventId, eventEpoch: session.bus.epoch };
  }

  // ---- permission votes ----------------------------------------------------------------------

  /**
   * A vote on a pending permission request. The client id must be registered on the session the
   * request belongs to (for the legacy route, the session is found from the request id). A vote that
   * answers a question resolves only once the answer is journaled (see durable-vote.ts); the promise
   * rejects with a 500 HttpError when the journal cannot be written, and the question stays waiting.
   */
  vote(v: {
    sessionId?: string;
    requestId: string;
    clientId: string | undefined;
    remoteAddress: string | undefined;
    outcome: VoteOutcome;
    answers?: Record<string, string> | undefined;
  }): Promise<VoteResult> {
    const session =
      v.sessionId !== undefined
        ? this.require(v.sessionId)
        : this.registry
            .live()
            .find((s) => this.mediator.pending(s.sessionId).some((p) => p.requestId === v.requestId));
    if (session !== undefined) {
      this.assertClient(session, v.clientId);
      session.touch(this.#o.clock.now());
    }
    return voteDurably(
      {
        mediator: this.mediator,
        journal: this.#o.answerJournal,
        inProgress: this.#votesInProgress,
        workspaceOf: (sessionId) => this.registry.getAny(sessionId)?.workspaceCwd ?? this.workspace,
        clock: this.#o.clock,
        log: this.#o.log,
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

  // ---- clients -------------------------------------------------------------------------------

  heartbeat(
    sessionId: string,
    clientId: string | undefined,
  ): { sessionId: string; clientId?: string; lastSeenAt: number } {
    const session = this.require(sessionId);
    this.assertClient(session, clientId);
    const now = this.#o.clock.now();
    if (clientId !== undefined) session.clients.touch(clientId, now);
    session.touch(now);
    return { sessionId, ...(clientId !== undefined ? { clientId } : {}), lastSeenAt: now };
  }

  detach(sessionId: string, clientId: string | undefined): void {
    const session = this.require(sessionId);
    this.assertClient(session, clientId);
    if (clientId !== undefined) session.clients.detach(clientId);
    session.touch(this.#o.clock.now());
  }

  // ---- closing -------------------------------------------------------------------------------

  /** DELETE /session/:id, idle reaping and shutdown: ends the session and tells the child. */
  async close(sessionId: string, reason: SessionCloseReason): Promise<void> {
    const session = this.require(sessionId);
    const wasActive = session.queue.promptActive;
    this.#end(session, DaemonEventType.sessionClosed, { reason }, "session_closed", "Session closed");
    if (wasActive) {
      await session.child.cancel(sessionId).catch((error: unknown) => {
        this.#o.log(`qwen serve: session/cancel for closing ${sessionId} failed: ${String(error)}`);
      });
    }
    if (!session.child.alive) return;
    try {
      await session.child.closeSession(sessionId);
    } catch (error) {
      // Older agents have no session/close; the session is gone from the daemon either way.
      if (!isMethodNotFound(error))
        this.#o.log(`qwen serve: session/close for ${sessionId} failed: ${String(error)}`);
    }
  }

  /** Ends every session (shutdown): pending permissions resolve as session_closed. */
  closeAll(): void {
    for (const session of this.registry.all()) {
      this.#end(
        session,
        DaemonEventType.sessionClosed,
        { reason: "shutdown" },
        "session_closed",
        "Daemon shutting down",
      );
    }
    this.mediator.dispose();
  }

  /**
   * Common end of a session: terminal events for its prompts, its permission requests resolved as
   * session_closed, the closing event, then the bus closed (subscribers drain and end).
   */
  #end(
    session: LiveSession,
    eventType: string,
    data: Record<string, unknown>,
    turnCode: string,
    turnMessage: string,
  ): void {
    if (session.phase === "ended") return;
    const wasLive = session.phase === "live";
    // Permissions first: ending the turns would otherwise release them as agent_cancelled. And before the
    // registry forgets the session, because the mediator finds the session's event bus through it: removed
    // first, clients would never see permission_resolved for the question that went away.
    this.mediator.cancelSession(session.sessionId, "session_closed");
    this.registry.remove(session);
    session.queue.failAll(turnCode, turnMessage);
    if (wasLive) session.bus.publish(eventType, { sessionId: session.sessionId, ...data });
    session.bus.close();
  }

  #discard(session: LiveSession): void {
    this.mediator.cancelSession(session.sessionId, "session_closed");
    this.registry.remove(session);
    session.queue.failAll("session_closed", "Session load failed");
    session.bus.close();
  }

  #onChildDeath(child: AcpChild, death: ChildDeath): void {
    for (const session of this.registry.all()) {
      if (session.child !== child) continue;
      this.#end(
        session,
        DaemonEventType.sessionDied,
        { reason: death.reason, exitCode: death.code, signal: death.signal },
        "session_died",
        `The agent process ended (${death.reason})`,
      );
    }
  }

  /** Closes live sessions nobody has touched for `idleMs` (no subscribers, no work, no pending asks). */
  reapIdle(idleMs: number): string[] {
    const now = this.#o.clock.now();
    const reaped: string[] = [];
    for (const session of this.registry.live()) {
      if (session.bus.subscriberCount > 0 || !isIdle(session.activity)) continue;
      if (this.mediator.hasPending(session.sessionId)) continue;
      if (now - session.lastActivityAt < idleMs) continue;
      reaped.push(session.sessionId);
      this.#o.log(`qwen serve: closing idle session ${session.sessionId}`);
      this.close(session.sessionId, "idle_timeout").catch((error: unknown) => {
        this.#o.log(`qwen serve: closing idle session ${session.sessionId} failed: ${String(error)}`);
      });
    }
    return reaped;
  }
}

function canonicalPath(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path; // does not exist (yet): compare as written
  }
}

function parseScope(scope: unknown): SessionScope {
  if (scope === undefined) return "single";
  if (scope === "single" || scope === "thread") return scope;
  throw invalidSessionScope(scope);
}

function promptText(blocks: readonly ContentBlock[]): string {
  return blocks.flatMap((b) => (b.type === "text" && typeof b.text === "string" ? [b.text] : [])).join("\n");
}

function noop(): void {}

function withPromptTerminals(result: RestoreResult, terminals: PromptTerminal[] | undefined): RestoreResult {
  return terminals === undefined ? result : { ...result, promptTerminals: terminals };
}
