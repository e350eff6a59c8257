// A session the daemon holds in memory: its event bus, attached clients, prompt queue and the child
// process it lives on. Owned and mutated by the SessionService; routes only read it.
import type { ChildConnection } from "../bridge/child-connection.js";
import type { DaemonEvent } from "../events/daemon-event.js";
import type { SessionEventBus } from "../events/event-bus.js";
import type { PersistedSession } from "../persisted/session-store.js";
import { ClientRegistry, type ClientRegistryOptions } from "./client-registry.js";
import type { ReplayedUpdate } from "./load-replay.js";
import type { PromptQueue } from "./prompt-queue.js";
import type { SessionActivity } from "./restore-admission.js";

export type TurnError = { message: string; code?: string };

export class LiveSession {
  readonly sessionId: string;
  readonly workspaceCwd: string;
  /** When the session began: its creation here, or (once restored) its first record on disk. */
  createdAt: string;
  readonly bus: SessionEventBus;
  readonly child: ChildConnection;
  readonly clients: ClientRegistry;
  queue!: PromptQueue;
  /** "loading": the child is replaying history (updates are collected, not published). */
  phase: "loading" | "live" | "ended" = "loading";
  /** History returned by this session's /load (ids 1..n); empty for created or resumed sessions. */
  replay: DaemonEvent[] = [];
  /** Updates collected while loading. */
  readonly collected: ReplayedUpdate[] = [];
  /**
   * The child holds a history for this session: it was restored from disk, or a turn ran here. Only then
   * can a question be left waiting in it, so only then does a later load ask the child to look again.
   */
  hasHistory = false;
  /** Prompts the journal closed as settled since it was last compacted (prompt-journaling.ts). */
  settledSinceCompaction = 0;
  /** Never set by this daemon (no goal turns); kept so status and admission read like the reference. */
  goalTurnActive = false;
  displayName: string | undefined;
  updatedAt: string | undefined;
  turnError: TurnError | undefined;
  lastActivityAt: number;

  constructor(init: {
    sessionId: string;
    workspaceCwd: string;
    bus: SessionEventBus;
    child: ChildConnection;
    now: number;
    clients?: ClientRegistryOptions;
  }) {
    this.sessionId = init.sessionId;
    this.workspaceCwd = init.workspaceCwd;
    this.createdAt = new Date(init.now).toISOString();
    this.bus = init.bus;
    this.child = init.child;
    this.clients = new ClientRegistry(init.clients);
    this.lastActivityAt = init.now;
  }

  get activity(): SessionActivity {
    return {
      promptActive: this.queue.promptActive,
      pendingPromptCount: this.queue.pendingCount,
      goalTurnActive: this.goalTurnActive,
    };
  }

  get hasActivePrompt(): boolean {
    return this.queue.promptActive || this.goalTurnActive;
  }

  /** Ids up to here were history given to a client (the /load replay); live events follow. */
  get historyLastEventId(): number {
    return this.replay.length;
  }

  /**
   * A restored session keeps what its transcript already says about it, so status and the session list
   * show the same session before and after a load: when it began, what it is called, when it last changed.
   * A name this daemon already gave it is kept.
   */
  adoptPersisted(persisted: PersistedSession): void {
    this.createdAt = persisted.createdAt;
    this.updatedAt ??= persisted.updatedAt;
    this.displayName ??= persisted.displayName;
  }

  touch(now: number): void {
    this.lastActivityAt = now;
  }
}
