// How the daemon's sessions are configured: limits, the permission policy, and the I/O it is given (the child
// channel factory, the session store, the answer and prompt journals, the clock, the log).

import type { SessionLeases } from "@qwen-daemon/core";
import type { RestoreSwitches } from "@qwen-daemon/core/protocol";
import type { AnswerJournal } from "../answers/answer-journal.js";
import type { ChannelFactory } from "../bridge/channel.js";
import type { BufferBudget } from "../budget/buffer-budget.js";
import type { Clock } from "../events/clock.js";
import type { DaemonEvent } from "../events/daemon-event.js";
import type { NotifySource } from "../notify/notify-event.js";
import type { PermissionPolicy } from "../permission/policy.js";
import type { SessionStore } from "../persisted/session-store.js";
import type { PromptJournal } from "../prompts/prompt-journal.js";
import type { SessionNames } from "./session-names.js";

/** The restore switches (one per row of the restore-kind table; off when absent) and the rest. */
export type SessionsOptions = Partial<RestoreSwitches> & {
  workspace: string;
  maxSessions: number;
  maxPendingPromptsPerSession: number;
  eventRingSize: number;
  /** Default: the bus's own (DEFAULT_RING_MAX_BYTES). */
  eventRingMaxBytes?: number;
  /** The daemon's one budget for what it buffers across sessions; every session's ring counts against it. */
  bufferBudget?: BufferBudget;
  /** Client ids kept per session (0 = no cap); default 1024. */
  maxClientsPerSession?: number;
  permission: { policy: PermissionPolicy; consensusQuorum?: number | undefined; timeoutMs: number };
  channelFactory: ChannelFactory;
  store: SessionStore;
  /** Where answers to questions are made durable before a vote is acknowledged (docs/restore.md "The guarantees"). */
  answerJournal: AnswerJournal;
  /** Where prompts are made durable before the 202, so a crash before they start is reported on load. */
  promptJournal: PromptJournal;
  /**
   * A storage shared by hosts (PostgreSQL): this daemon's session leases (docs/storage.md "Leases and
   * fencing"). A session is opened from storage only once its lease is taken; one taken over by another
   * daemon is dropped here. Undefined for storage one host keeps alone (JSONL).
   */
  leases?: SessionLeases;
  /** What the storage is, without secrets (`jsonl:<folder>` or the redacted URL), for /daemon/status. */
  storageDescription?: string;
  /** The names people give sessions (default: in memory). */
  names?: SessionNames;
  clock: Clock;
  log: (line: string) => void;
  /** Literal secrets redacted from child stderr (the daemon token). */
  secrets?: readonly string[];
  /** Sees every event a live session publishes, with the session it belongs to (the notifier). */
  observeEvent?: (source: NotifySource, event: DaemonEvent) => void;
  newId?: () => string;
  /** Check every event against the contract's schema (SessionEventBus `checkEvents`; tests). */
  checkEvents?: boolean;
  mintClientId?: () => string;
};
