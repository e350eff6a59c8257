// The daemon's sessions on its workspace: which are live (the registry), the mediator that holds their
// permission requests, the children they live on, the store they are opened from, and the options they were
// built with. Built once by the server. Routes find a session here and call it (live-session.ts); the
// operations that span sessions take this object: session-create.ts, session-open.ts, durable-vote.ts,
// continue-turn.ts.

import { randomUUID } from "node:crypto";
import { resolve } from "node:path";
import { kindSwitchesOf, type RestoreKindSwitches } from "@qwen-daemon/core/protocol";
import { JournalHealth } from "../answers/journal-health.js";
import { KeyedSerializer } from "../answers/keyed-serializer.js";
import type { ChildConnection, ChildDeath } from "../bridge/child-connection.js";
import { ChildSupervisor } from "../bridge/child-supervisor.js";
import { sessionNotFound, sessionOwnedElsewhere } from "../errors/domain-errors.js";
import { PermissionMediator } from "../permission/mediator.js";
import type { SessionStore } from "../persisted/session-store.js";
import { relayPermissionRequest, relaySessionUpdate } from "./child-relay.js";
import { LiveSession } from "./live-session.js";
import { memorySessionNames, type SessionNames } from "./session-names.js";
import { SessionRegistry } from "./session-registry.js";
import { isIdle } from "./session-state.js";
import type { SessionsOptions } from "./sessions-options.js";

export type { SessionsOptions } from "./sessions-options.js";

/** Sessions lost to other daemons remembered for a 409 (the oldest are forgotten first: then a 404). */
const MAX_REMEMBERED_LOST = 10_000;

export class Sessions {
  readonly options: SessionsOptions;
  /** The daemon's workspace, resolved. */
  readonly workspace: string;
  readonly registry: SessionRegistry;
  readonly mediator: PermissionMediator;
  readonly children: ChildSupervisor;
  readonly store: SessionStore;
  /** The names people gave sessions (session-names.ts). */
  readonly names: SessionNames;
  readonly newId: () => string;
  /** Damaged answer-journal lines seen on opens (shown by `/daemon/status`). */
  readonly journalHealth = new JournalHealth();
  /** Votes being judged, journaled and applied, one at a time per request (durable-vote.ts). */
  readonly votesInProgress = new KeyedSerializer();
  /**
   * Sessions another daemon took over from this one (shared storage), with that daemon's URL: later requests
   * on them are answered 409 naming it, not 404. Forgotten when this daemon takes one back (a load).
   */
  readonly #ownedElsewhere = new Map<string, string>();

  constructor(options: SessionsOptions) {
    this.options = options;
    this.workspace = resolve(options.workspace);
    this.store = options.store;
    this.names = options.names ?? memorySessionNames();
    this.newId = options.newId ?? randomUUID;
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
      newId: this.newId,
      answers: { journal: options.answerJournal, store: options.store, health: this.journalHealth },
      journalApprovals: options.restorePendingApprovals === true,
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
      onDeath: (child, death) => this.#childDied(child, death),
    });
  }

  /** The restore switches, per kind. */
  get switches(): RestoreKindSwitches {
    return kindSwitchesOf(this.options);
  }

  get restoreAskUserQuestion(): boolean {
    return this.options.restoreAskUserQuestion === true;
  }

  get restorePendingApprovals(): boolean {
    return this.options.restorePendingApprovals === true;
  }

  get limits() {
    return {
      maxSessions: this.options.maxSessions,
      maxPendingPromptsPerSession: this.options.maxPendingPromptsPerSession,
      eventRingSize: this.options.eventRingSize,
      permissionResponseTimeoutMs: this.options.permission.timeoutMs,
    };
  }

  /** The live session, or 409 `session_owned_elsewhere` for one another daemon took over, or 404. */
  require(sessionId: string): LiveSession {
    const session = this.registry.get(sessionId);
    if (session === undefined) {
      const owner = this.#ownedElsewhere.get(sessionId);
      if (owner !== undefined) throw sessionOwnedElsewhere(sessionId, owner);
      throw sessionNotFound(sessionId);
    }
    return session;
  }

  /**
   * Another daemon holds the session now (its lease was taken over, or a write was fenced): the session is
   * dropped here, its clients told (`session_owned_elsewhere`), and later requests answered 409 naming `owner`.
   */
  lost(sessionId: string, owner: string): void {
    this.#ownedElsewhere.delete(sessionId); // re-inserted last: the map keeps the most recent
    this.#ownedElsewhere.set(sessionId, owner);
    if (this.#ownedElsewhere.size > MAX_REMEMBERED_LOST) {
      const oldest = this.#ownedElsewhere.keys().next().value;
      if (oldest !== undefined) this.#ownedElsewhere.delete(oldest);
    }
    const session = this.registry.getAny(sessionId);
    if (session === undefined) return;
    this.options.log(`qwen serve: session ${sessionId} was taken over by ${owner}; dropped here`);
    session.ownedElsewhere(owner);
  }

  /** This daemon holds the session's lease again (it loaded it). */
  regained(sessionId: string): void {
    this.#ownedElsewhere.delete(sessionId);
  }

  /** A new session on `child`, opening; the caller registers it and tells it when it is open. */
  newSession(sessionId: string, cwd: string, child: ChildConnection): LiveSession {
    // The journals keep this session's writers open while it is live (answers/kept-session-logs.ts).
    this.options.answerJournal.hold(cwd, sessionId);
    this.options.promptJournal.hold(cwd, sessionId);
    return new LiveSession(sessionId, cwd, child, {
      options: this.options,
      mediator: this.mediator,
      newId: this.newId,
      forget: (session) => {
        this.registry.remove(session);
        this.#releaseJournals(session.workspaceCwd, session.sessionId);
      },
      lost: (session, owner) => this.lost(session.sessionId, owner),
    });
  }

  /**
   * Closes live sessions nobody has touched for `idleMs` (no subscribers, no work, no pending asks), and
   * forgets the clients of the others that have not been seen for as long (and listen on no stream).
   */
  reapIdle(idleMs: number): string[] {
    const { clock, log } = this.options;
    const now = clock.now();
    const reaped: string[] = [];
    for (const session of this.registry.live()) {
      const busy = !isIdle(session.activity) || this.mediator.hasPending(session.sessionId);
      if (busy) {
        // A session with work under way keeps every client: the one who prompted, or who may answer its
        // waiting question (designated, consensus), must still be known when the answer comes hours later.
        continue;
      }
      if (session.bus.subscriberCount > 0 || now - session.lastActivityAt < idleMs) {
        session.clients.expire(now, idleMs);
        continue;
      }
      reaped.push(session.sessionId);
      log(`qwen serve: closing idle session ${session.sessionId}`);
      session.close("idle_timeout").catch((error: unknown) => {
        log(`qwen serve: closing idle session ${session.sessionId} failed: ${String(error)}`);
      });
    }
    return reaped;
  }

  /** Ends every session (shutdown): pending permissions resolve as session_closed. */
  closeAll(): void {
    for (const session of this.registry.all()) session.closeForShutdown("Daemon shutting down");
    this.mediator.dispose();
  }

  /** The daemon stops: the journals' writers are closed (after closeAll, once nothing writes any more). */
  async closeJournals(): Promise<void> {
    await Promise.all([this.options.answerJournal.close(), this.options.promptJournal.close()]);
  }

  /**
   * The session ended: the journals close its writers. Not awaited: each journal orders the close after the
   * writes queued before it, and a failure only costs a log line.
   */
  #releaseJournals(cwd: string, sessionId: string): void {
    const { answerJournal, promptJournal, log } = this.options;
    for (const journal of [answerJournal, promptJournal]) {
      journal.release(cwd, sessionId).catch((error: unknown) => {
        log(`qwen serve: closing a journal of session ${sessionId} failed: ${String(error)}`);
      });
    }
  }

  /** Ends the sessions that lived on a child that died. */
  #childDied(child: ChildConnection, death: ChildDeath): void {
    for (const session of this.registry.all()) if (session.child === child) session.childDied(death);
  }
}
