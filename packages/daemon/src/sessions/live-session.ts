// A session the daemon holds in memory, and the one owner of its state: its event bus, attached clients,
// prompt queue, the child process it lives on, and where it is in its life (session-state.ts). The routes
// call it directly (attach, heartbeat, detach, prompt, cancel, close); opening, votes and continuing a turn,
// which need more than one session, live in session-open.ts, durable-vote.ts and continue-turn.ts.
import {
  type AttachResponse,
  type ContentBlock,
  type DaemonEventData,
  DaemonEventType,
  type HeartbeatResponse,
  PROMPT_ID_META_KEY,
  type PromptAccepted,
  type SessionConfigOption,
  type SessionUpdatePayload,
  stripBlockMeta,
  stripDaemonMeta,
  USER_MESSAGE_ID_META_KEY,
} from "@qwen-daemon/core/protocol";
import type { ChildConnection, ChildDeath } from "../bridge/child-connection.js";
import { jsonBytes } from "../budget/json-bytes.js";
import { isDaemonError } from "../errors/daemon-error.js";
import { promptNotQueued, sessionNotFound, unregisteredClientId } from "../errors/domain-errors.js";
import type { DaemonEvent } from "../events/daemon-event.js";
import { SessionEventBus } from "../events/event-bus.js";
import type { PermissionMediator } from "../permission/mediator.js";
import type { PersistedSession } from "../persisted/session-store.js";
import { tellChildClosed } from "./child-close.js";
import { ClientRegistry } from "./client-registry.js";
import { type ReplayedUpdate, replayEvents } from "./load-replay.js";
import { SessionPromptJournal } from "./prompt-journaling.js";
import { PromptQueue, type QueuedPrompt, type TurnOutcome } from "./prompt-queue.js";
import { isEnded, nextState, type SessionActivity, type SessionState } from "./session-state.js";
import type { SessionsOptions } from "./sessions-options.js";
import { promptEnvelope, turnHost } from "./turn-host.js";

export type TurnError = { message: string; code?: string };

/** `deleted`: closed by `DELETE /session/:id?purge=true`, which then removes its files. */
export type SessionCloseReason = "client" | "idle_timeout" | "shutdown" | "deleted";

export type PromptInput = { prompt: ContentBlock[]; deadlineMs?: number | undefined; meta?: unknown };

/** What a session is given by the daemon's sessions (sessions.ts) when it is made. */
export type LiveSessionDeps = {
  options: SessionsOptions;
  mediator: PermissionMediator;
  newId: () => string;
  /** The daemon stops routing to this session (it is ending). */
  forget: (session: LiveSession) => void;
  /** A write of this session was fenced: another daemon, at `owner`, holds it now (Sessions.lost). */
  lost: (session: LiveSession, owner: string) => void;
};

export class LiveSession {
  readonly sessionId: string;
  readonly workspaceCwd: string;
  readonly bus: SessionEventBus;
  readonly child: ChildConnection;
  readonly clients: ClientRegistry;
  readonly queue: PromptQueue;
  readonly #deps: LiveSessionDeps;
  readonly #journal: SessionPromptJournal;
  #state: SessionState = "opening";
  /** History returned by this session's /load (ids 1..n); empty for created or resumed sessions. */
  #replay: readonly DaemonEvent[] = [];
  /** Gives the bytes of #collected, then of #replay, back to the daemon's buffer budget. */
  #releaseReplay: (() => void) | undefined;
  /** Updates the child replays while the session is opening, and their size in the budget. */
  #collected: ReplayedUpdate[] = [];
  #collectedBytes = 0;
  #hasHistory = false;
  #createdAt: string;
  /** The agent's config options for this session (from new/load/resume and the config route's answers). */
  configOptions: SessionConfigOption[] | undefined;
  #updatedAt: string | undefined;
  #displayName: string | undefined;
  #turnError: TurnError | undefined;
  #lastActivityAt: number;

  constructor(sessionId: string, workspaceCwd: string, child: ChildConnection, deps: LiveSessionDeps) {
    const { options } = deps;
    const { clock, log, observeEvent, bufferBudget: budget } = options;
    const now = clock.now();
    this.sessionId = sessionId;
    this.workspaceCwd = workspaceCwd;
    this.child = child;
    this.#deps = deps;
    this.#createdAt = new Date(now).toISOString();
    this.#lastActivityAt = now;
    this.#journal = new SessionPromptJournal(options, sessionId, workspaceCwd);
    this.bus = new SessionEventBus({
      ringSize: options.eventRingSize,
      checkEvents: options.checkEvents === true,
      ...(options.eventRingMaxBytes !== undefined ? { ringMaxBytes: options.eventRingMaxBytes } : {}),
      ...(options.bufferBudget !== undefined ? { budget: options.bufferBudget } : {}),
      clock,
      reportError: (error, context) =>
        log(`qwen serve: event bus of ${sessionId}: ${context}: ${String(error)}`),
      ...(observeEvent !== undefined
        ? { observe: (event) => observeEvent(this.#notifySource(event), event) }
        : {}),
    });
    this.clients = new ClientRegistry({
      ...(options.mintClientId !== undefined ? { mint: options.mintClientId } : {}),
      ...(options.maxClientsPerSession !== undefined ? { maxClients: options.maxClientsPerSession } : {}),
      now: () => clock.now(),
    });
    this.queue = new PromptQueue({
      sessionId,
      maxPending: options.maxPendingPromptsPerSession,
      clock,
      // The queue built the data from the contract's type for `type` (PromptQueue's #publish).
      publish: (type, data, extra) => this.bus.emit(type, data as DaemonEventData<typeof type>, extra),
      reportError: (error, context) => log(`qwen serve: ${context}: ${describeError(error)}`),
      ...(budget !== undefined ? { holdBody: (prompt) => budget.hold(jsonBytes(prompt)) } : {}),
      ...turnHost(this, {
        mediator: deps.mediator,
        clock,
        log,
        settled: (entry) => this.#journal.closed(entry.promptId, "settled"),
      }),
    });
  }

  // ---- what it is ---------------------------------------------------------------------------

  get state(): SessionState {
    return this.#state;
  }

  get activity(): SessionActivity {
    return { promptActive: this.queue.promptActive, pendingPromptCount: this.queue.pendingCount };
  }

  get hasActivePrompt(): boolean {
    return this.queue.promptActive;
  }

  /** History given to a client by /load (ids 1..n); live events follow. */
  get replay(): readonly DaemonEvent[] {
    return this.#replay;
  }

  get historyLastEventId(): number {
    return this.#replay.length;
  }

  /**
   * The child holds a history for this session: it was opened from disk, or a turn ran here. Only then can a
   * question be left waiting in it, so only then does a later load ask the child to look again.
   */
  get hasHistory(): boolean {
    return this.#hasHistory;
  }

  /** When the session began: its creation here, or (once opened from disk) its first record there. */
  get createdAt(): string {
    return this.#createdAt;
  }

  get updatedAt(): string | undefined {
    return this.#updatedAt;
  }

  get displayName(): string | undefined {
    return this.#displayName;
  }

  get turnError(): TurnError | undefined {
    return this.#turnError;
  }

  get lastActivityAt(): number {
    return this.#lastActivityAt;
  }

  touch(now = this.#deps.options.clock.now()): void {
    this.#lastActivityAt = now;
  }

  // ---- opening ------------------------------------------------------------------------------

  /** A session/update from the child: collected as the replay while opening, published once live. */
  receiveUpdate(update: SessionUpdatePayload): void {
    if (this.#state === "opening") {
      this.#collected.push({ update, at: this.#deps.options.clock.now() });
      this.#collectedBytes += jsonBytes(update);
      this.#holdReplay(this.#collectedBytes);
      return;
    }
    const active = this.queue.active;
    this.bus.emit(
      DaemonEventType.sessionUpdate,
      { sessionId: this.sessionId, update },
      active === undefined ? {} : promptEnvelope(active),
    );
  }

  /**
   * The child has the session: it goes live. Opened from disk, it keeps what its transcript says about it
   * (so status and the list show the same session before and after a load) and, for a load, the collected
   * history becomes its replay (ids 1..n, the first live event is n+1).
   */
  opened(from?: { persisted: PersistedSession | undefined; replay: boolean }): void {
    this.#state = nextState(this.#state, "opened");
    const collected = this.#collected;
    const collectedBytes = this.#collectedBytes;
    this.#collected = [];
    this.#collectedBytes = 0;
    if (from === undefined) {
      this.#holdReplay(0);
      return;
    }
    if (from.persisted !== undefined) {
      this.#createdAt = from.persisted.createdAt;
      this.#updatedAt ??= from.persisted.updatedAt;
      this.#displayName ??= from.persisted.displayName;
    }
    const replay = from.replay ? replayEvents(this.sessionId, collected) : [];
    this.#replay = replay;
    this.#holdReplay(replay.length === 0 ? 0 : collectedBytes + replay.length * envelopeBytes(replay[0]!));
    this.#hasHistory = true;
    this.bus.advanceTo(this.#replay.length);
  }

  /** The replay shown again, e.g. with a re-asked question back in progress (replay-reopen.ts). */
  replaceReplay(replay: readonly DaemonEvent[]): void {
    this.#replay = replay;
    this.#holdReplay(jsonBytes(replay));
  }

  /**
   * The history a load replays counts in the daemon's buffer budget while it is collected and then for as long
   * as the session keeps it for the clients that load it later (it cannot be evicted: a load answers with all
   * of it). `bytes` replaces what was held before.
   */
  #holdReplay(bytes: number): void {
    this.#releaseReplay?.();
    this.#releaseReplay = undefined;
    const budget = this.#deps.options.bufferBudget;
    if (budget !== undefined && bytes > 0 && !isEnded(this.#state)) this.#releaseReplay = budget.hold(bytes);
  }

  // ---- clients ------------------------------------------------------------------------------

  /** Throws 400 `invalid_client_id` for a client id not registered here; a registered one counts as seen. */
  assertClient(clientId: string | undefined): void {
    if (clientId !== undefined && !this.clients.seen(clientId)) {
      throw unregisteredClientId(this.sessionId, clientId);
    }
  }

  /** Registers the client; `created` says the session is new (so the client did not attach). */
  attach(requestedClientId: string | undefined, created: boolean): AttachResponse {
    const now = this.#deps.options.clock.now();
    const clientId = this.clients.attach(requestedClientId, now);
    this.touch(now);
    return {
      sessionId: this.sessionId,
      workspaceCwd: this.workspaceCwd,
      attached: !created,
      clientId,
      createdAt: this.#createdAt,
      ...(this.configOptions !== undefined ? { configOptions: this.configOptions } : {}),
    };
  }

  heartbeat(clientId: string | undefined): HeartbeatResponse {
    this.assertClient(clientId);
    const now = this.#deps.options.clock.now();
    if (clientId !== undefined) this.clients.touch(clientId, now);
    this.touch(now);
    return { sessionId: this.sessionId, ...(clientId !== undefined ? { clientId } : {}), lastSeenAt: now };
  }

  detach(clientId: string | undefined): void {
    this.assertClient(clientId);
    if (clientId !== undefined) this.clients.detach(clientId);
    this.touch();
  }

  // ---- prompts and turns --------------------------------------------------------------------

  /**
   * Admits a client prompt; daemon-only `_meta` keys are stripped. The prompt is journaled (fsynced) before it is
   * queued and the route answers 202, so a crash before the agent starts it cannot lose it silently: a later load
   * reports it as never started (prompt-journaling.ts). The queue's room is checked first (503 without writing
   * anything), and again after the write; a prompt refused then, or whose session ended meanwhile, is withdrawn.
   */
  async prompt(input: PromptInput, clientId: string | undefined): Promise<PromptAccepted> {
    this.assertClient(clientId);
    this.queue.assertRoom();
    const promptId = this.#deps.newId();
    // The id the agent saves the user message under: the echo and a later replay name the message by it.
    const messageId = this.#deps.newId();
    const blocks = input.prompt.map((block) => stripBlockMeta(block));
    const text = promptText(blocks);
    try {
      await this.#journal.accepted({ promptId, text, originatorClientId: clientId });
    } catch (error) {
      if (isDaemonError(error) && error.code === "session_owned_elsewhere")
        this.#deps.lost(this, String(error.body.owner));
      throw error;
    }
    // The echo and everything after it come after this id.
    const lastEventId = this.bus.lastEventId;
    try {
      if (this.#state !== "live") throw sessionNotFound(this.sessionId);
      this.queue.admit({
        promptId,
        kind: "user",
        text,
        prompt: blocks,
        meta: {
          ...stripDaemonMeta(input.meta),
          [PROMPT_ID_META_KEY]: promptId,
          [USER_MESSAGE_ID_META_KEY]: messageId,
        },
        originatorClientId: clientId,
        deadlineMs: input.deadlineMs,
      });
    } catch (error) {
      await this.#journal.closed(promptId, "withdrawn");
      throw error;
    }
    this.touch();
    const queuePosition = this.queue.positionOf(promptId);
    return {
      promptId,
      messageId,
      lastEventId,
      eventEpoch: this.bus.epoch,
      ...(queuePosition !== undefined ? { queuePosition } : {}),
    };
  }

  /** Takes a waiting prompt back (prompt-queue.ts `withdraw`); its journal entry is closed as withdrawn. */
  async withdrawPrompt(promptId: string, clientId: string | undefined): Promise<void> {
    this.assertClient(clientId);
    const result = this.queue.withdraw(promptId);
    if (result !== "withdrawn") throw promptNotQueued(this.sessionId, promptId, result === "running");
    this.touch();
    await this.#journal.closed(promptId, "withdrawn");
  }

  /** Cancels the running prompt, if any (204 either way). */
  cancel(clientId: string | undefined): void {
    this.assertClient(clientId);
    this.queue.cancelActive();
    this.touch();
  }

  /** A turn is being sent to the child (turn-host.ts). */
  turnStarted(entry: QueuedPrompt): void {
    this.#turnError = undefined;
    this.#hasHistory = true;
    if (entry.kind === "user") this.#displayName ??= entry.text.slice(0, 120) || undefined;
  }

  /** A turn ended, however: what status shows of it. */
  turnEnded(outcome: TurnOutcome, now: number): void {
    this.#updatedAt = new Date(now).toISOString();
    this.#turnError =
      outcome.kind === "error"
        ? { message: outcome.message, ...(outcome.code !== undefined ? { code: outcome.code } : {}) }
        : undefined;
    this.touch(now);
  }

  // ---- ending -------------------------------------------------------------------------------

  /** DELETE (with the client's id, checked like cancel's), idle reaping and shutdown; then the child is told. */
  async close(reason: SessionCloseReason, clientId?: string): Promise<void> {
    this.assertClient(clientId);
    if (isEnded(this.#state)) return;
    const turnWasRunning = this.queue.promptActive;
    const announced = this.#state === "live";
    this.#end("session_closed", "Session closed");
    if (announced) this.bus.emit(DaemonEventType.sessionClosed, { sessionId: this.sessionId, reason });
    this.bus.close();
    try {
      await tellChildClosed(this.child, this.sessionId, turnWasRunning, this.#deps.options.log);
      await this.#releaseLease();
    } finally {
      this.#state = nextState(this.#state, "closed");
    }
  }

  /** Shared storage: closed on purpose, so another daemon may load it at once instead of after the expiry. */
  async #releaseLease(): Promise<void> {
    const { leases, log } = this.#deps.options;
    try {
      await leases?.release({ cwd: this.workspaceCwd, sessionId: this.sessionId });
    } catch (error) {
      log(`qwen serve: releasing the lease of ${this.sessionId} failed: ${String(error)}`);
    }
  }

  /**
   * Another daemon took the session over (shared storage; Sessions.lost): ended here, its clients told who
   * owns it now, and the child told to close it. Whatever the child still tries to write is refused by the
   * store (fenced), so it cannot touch the session the new owner continues.
   */
  ownedElsewhere(owner: string): void {
    if (isEnded(this.#state)) return;
    const turnWasRunning = this.queue.promptActive;
    const announced = this.#state === "live";
    const opening = this.#state === "opening";
    this.#end("session_owned_elsewhere", `Session taken over by another daemon (${owner})`);
    if (announced) this.bus.emit(DaemonEventType.sessionOwnedElsewhere, { sessionId: this.sessionId, owner });
    this.bus.close();
    if (opening) {
      this.#state = nextState(this.#state, "closed");
      return;
    }
    void tellChildClosed(this.child, this.sessionId, turnWasRunning, this.#deps.options.log).finally(() => {
      this.#state = nextState(this.#state, "closed");
    });
  }

  /** Shutdown: ended without telling the child (it is stopped next). */
  closeForShutdown(message: string): void {
    if (isEnded(this.#state)) return;
    const announced = this.#state === "live";
    this.#end("session_closed", message);
    if (announced)
      this.bus.emit(DaemonEventType.sessionClosed, { sessionId: this.sessionId, reason: "shutdown" });
    this.bus.close();
    this.#state = nextState(this.#state, "closed");
  }

  /** The child this session lived on died. */
  childDied(death: ChildDeath): void {
    if (isEnded(this.#state)) return;
    const announced = this.#state === "live";
    this.#end("session_died", `The agent process ended (${death.reason})`);
    if (announced) {
      this.bus.emit(DaemonEventType.sessionDied, {
        sessionId: this.sessionId,
        reason: death.reason,
        exitCode: death.code,
        signal: death.signal,
      });
    }
    this.bus.close();
    this.#state = nextState(this.#state, "closed");
  }

  /** An open that failed: forgotten without a closing event (no client ever saw it live). */
  discard(): void {
    if (this.#state !== "opening") return;
    this.#end("session_closed", "Session load failed");
    this.bus.close();
    this.#state = nextState(this.#state, "closed");
  }

  /**
   * Common end: the session's permission requests resolved as session_closed, the daemon stops routing to it,
   * and its prompts get their terminal events; the caller then announces the end and closes the bus.
   */
  #end(turnCode: string, turnMessage: string): void {
    if (isEnded(this.#state)) throw new Error(`session ${this.sessionId} ended twice`);
    // Permissions first: ending the turns would otherwise release them as agent_cancelled. And before the
    // daemon forgets the session, because the mediator finds the session's event bus through it: forgotten
    // first, clients would never see permission_resolved for the question that went away.
    this.#deps.mediator.cancelSession(this.sessionId, "session_closed");
    this.#deps.forget(this);
    if (this.#state === "live") this.#state = nextState(this.#state, "close");
    this.queue.failAll(turnCode, turnMessage);
    // An ended session may stay referenced a while; what it buffered leaves the budget now.
    this.#holdReplay(0);
  }

  /** Who an event is about, for the notifier: the session, and whether it comes from a restore prompt. */
  #notifySource(event: DaemonEvent) {
    const active = this.queue.active;
    return {
      sessionId: this.sessionId,
      workspace: this.workspaceCwd,
      displayName: this.#displayName,
      restored:
        event.promptId !== undefined && active?.promptId === event.promptId && active.kind === "restore",
    };
  }
}

function promptText(blocks: readonly ContentBlock[]): string {
  return blocks.flatMap((b) => (b.type === "text" && typeof b.text === "string" ? [b.text] : [])).join("\n");
}

function describeError(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/** What a replayed event adds around its update (ids, type, timestamp), measured on one of them. */
function envelopeBytes(event: DaemonEvent): number {
  const data = event.data as { update?: unknown };
  return Math.max(0, jsonBytes(event) - jsonBytes(data.update ?? null));
}
