// One session's prompts, strictly one at a time, first in first out. Admission (queue bound) is decided
// synchronously so the HTTP route can answer 202 or 503 before anything is sent. Every admitted prompt
// ends with exactly one terminal event (turn_complete or turn_error). Like the reference daemon, only a
// prompt that had to wait behind another is announced with pending_prompt_added / _started / _completed;
// one that starts at once goes straight to its turn.

import type { Meta } from "@qwen-daemon/core/protocol";
import { type ContentBlock, type DaemonEventData, DaemonEventType } from "@qwen-daemon/core/protocol";
import { promptQueueFull } from "../errors/domain-errors.js";
import type { Clock, TimerHandle } from "../events/clock.js";
import type { DaemonEventExtra } from "../events/daemon-event.js";

export type PromptKind = "user" | "restore" | "continue";

export type QueuedPrompt = {
  readonly promptId: string;
  readonly kind: PromptKind;
  /** Text shown in pending-prompts lists (the prompt's text blocks joined). */
  readonly text: string;
  readonly queuedAt: number;
  readonly originatorClientId: string | undefined;
  /** Content sent to the agent. */
  readonly prompt: ContentBlock[];
  /** The child-bound `_meta`, daemon keys included. */
  readonly meta: Meta;
  state: "queued" | "running";
  /** It had to wait behind another prompt (so it gets the pending_prompt_* events). */
  readonly waited: boolean;
  /** A terminal event (turn_complete / turn_error) was published. */
  terminal: boolean;
  /** The agent was asked to stop this prompt (cancel route or deadline). */
  interrupted: boolean;
  deadlineTimer?: TimerHandle;
  /** Gives the body's bytes back to the daemon's buffer budget (PromptQueueHost.holdBody). */
  releaseBody?: (() => void) | undefined;
};

export type PromptAdmission = {
  promptId: string;
  kind: PromptKind;
  text: string;
  prompt: ContentBlock[];
  meta: Meta;
  originatorClientId?: string | undefined;
  deadlineMs?: number | undefined;
};

export type TurnOutcome =
  | { kind: "complete"; stopReason: string }
  | { kind: "error"; message: string; code?: string | undefined };

export interface PromptQueueHost {
  readonly sessionId: string;
  /** Running + queued prompts allowed; 0 = no cap. */
  readonly maxPending: number;
  readonly clock: Clock;
  /** A prompt event, its data checked against the contract by the queue (`PromptEvent`) before it gets here. */
  publish(type: PromptEventType, data: PromptEventData, extra?: DaemonEventExtra): void;
  /** Sends the prompt to the agent; resolves with the turn's outcome (never rejects). */
  dispatch(entry: QueuedPrompt): Promise<TurnOutcome>;
  /** Asks the agent to stop the running prompt and releases its waiting permission requests. */
  interrupt(entry: QueuedPrompt): void;
  /** A turn ended (for status: last error, updatedAt). */
  onTurnEnd(entry: QueuedPrompt, outcome: TurnOutcome): void;
  /** A failure the queue recovered from (a dispatch that rejected despite its contract): for the log. */
  reportError(error: unknown, context: string): void;
  /**
   * Counts an admitted prompt's body in the daemon's buffer budget until it leaves the queue (ended, withdrawn,
   * or failed with its session); returns what gives it back.
   */
  holdBody?(prompt: ContentBlock[]): () => void;
}

/** The events of one prompt's life. */
export type PromptEventType =
  | typeof DaemonEventType.pendingPromptAdded
  | typeof DaemonEventType.pendingPromptStarted
  | typeof DaemonEventType.pendingPromptCompleted
  | typeof DaemonEventType.promptCancelled
  | typeof DaemonEventType.turnComplete
  | typeof DaemonEventType.turnError;

/** What every prompt event's data carries, and the rest by type. */
export type PromptEventData = Record<string, unknown> & { sessionId: string; promptId: string };

export const DEADLINE_EXCEEDED_CODE = "prompt_deadline_exceeded";
/** `turn_error` code of a prompt whose dispatch failed inside the daemon (a bug, logged with its cause). */
export const DISPATCH_FAILED_CODE = "prompt_dispatch_failed";
/** `turn_error` code of a queued prompt its client took back before it started. */
export const PROMPT_WITHDRAWN_CODE = "prompt_withdrawn";

export class PromptQueue {
  readonly #host: PromptQueueHost;
  readonly #queued: QueuedPrompt[] = [];
  #running: QueuedPrompt | undefined;
  #closed = false;

  constructor(host: PromptQueueHost) {
    this.#host = host;
  }

  /** Running plus queued prompts (what `--max-pending-prompts-per-session` bounds). */
  get pendingCount(): number {
    return this.#queued.length + (this.#running === undefined ? 0 : 1);
  }

  get active(): QueuedPrompt | undefined {
    return this.#running;
  }

  get promptActive(): boolean {
    return this.#running !== undefined;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Running first, then queued in order. */
  list(): QueuedPrompt[] {
    return this.#running === undefined ? [...this.#queued] : [this.#running, ...this.#queued];
  }

  /** Throws 503 `prompt_queue_full` when a prompt could not be admitted now (checked before journaling it). */
  assertRoom(): void {
    if (this.#closed) throw new Error(`prompt queue of session ${this.#host.sessionId} is closed`);
    const { maxPending, sessionId } = this.#host;
    if (maxPending > 0 && this.pendingCount >= maxPending)
      throw promptQueueFull(sessionId, maxPending, this.pendingCount);
  }

  /**
   * Admits a prompt or throws 503 `prompt_queue_full`. Publishes `pending_prompt_added` and starts it
   * at once when the session is idle.
   */
  admit(a: PromptAdmission): QueuedPrompt {
    this.assertRoom();
    const entry: QueuedPrompt = {
      promptId: a.promptId,
      kind: a.kind,
      text: a.text,
      queuedAt: this.#host.clock.now(),
      originatorClientId: a.originatorClientId,
      prompt: a.prompt,
      meta: a.meta,
      state: "queued",
      waited: this.pendingCount > 0,
      terminal: false,
      interrupted: false,
      releaseBody: this.#host.holdBody?.(a.prompt),
    };
    this.#queued.push(entry);
    if (entry.waited) {
      this.#publish(entry, DaemonEventType.pendingPromptAdded, {
        text: entry.text,
        queuedAt: entry.queuedAt,
        position: this.#queued.length,
      });
    }
    if (a.deadlineMs !== undefined) {
      entry.deadlineTimer = this.#host.clock.setTimeout(
        () => this.#deadline(entry, a.deadlineMs!),
        a.deadlineMs,
      );
    }
    this.#pump();
    return entry;
  }

  /** The place of a waiting prompt among the waiting ones (1 = next), or undefined when it is not waiting. */
  positionOf(promptId: string): number | undefined {
    const index = this.#queued.findIndex((p) => p.promptId === promptId);
    return index === -1 ? undefined : index + 1;
  }

  /**
   * Takes a waiting prompt back before it starts: it ends with a `turn_error` (`prompt_withdrawn`) and
   * `pending_prompt_completed` (cancelled), as a queued prompt past its deadline does. `running` when it has
   * started already (cancel it instead), `unknown` when the queue does not hold it.
   */
  withdraw(promptId: string): "withdrawn" | "running" | "unknown" {
    if (this.#running?.promptId === promptId) return "running";
    const index = this.#queued.findIndex((p) => p.promptId === promptId);
    const entry = this.#queued[index];
    if (entry === undefined) return "unknown";
    this.#queued.splice(index, 1);
    this.#terminal(entry, {
      kind: "error",
      message: "Withdrawn by the client before it started",
      code: PROMPT_WITHDRAWN_CODE,
    });
    this.#completed(entry, "cancelled");
    return "withdrawn";
  }

  /** Cancels the running prompt (the agent is asked to stop); false when idle or already cancelling. */
  cancelActive(): boolean {
    const entry = this.#running;
    if (entry === undefined || entry.interrupted) return false;
    this.#publish(entry, DaemonEventType.promptCancelled, {});
    this.#interrupt(entry);
    return true;
  }

  /**
   * The session ended (closed, died): every prompt still here gets its terminal now and nothing else
   * starts. A running dispatch that settles later changes nothing.
   */
  failAll(code: string, message: string): void {
    if (this.#closed) return;
    this.#closed = true;
    const entries = this.list();
    this.#queued.length = 0;
    this.#running = undefined;
    for (const entry of entries) {
      this.#terminal(entry, { kind: "error", message, code });
      this.#completed(entry, "cancelled");
    }
  }

  #pump(): void {
    if (this.#closed || this.#running !== undefined) return;
    const entry = this.#queued.shift();
    if (entry === undefined) return;
    entry.state = "running";
    this.#running = entry;
    if (entry.waited) this.#publish(entry, DaemonEventType.pendingPromptStarted, { text: entry.text });
    // A dispatch that rejects anyway must still end its prompt: left running, it would wedge the session.
    this.#host.dispatch(entry).then(
      (outcome) => this.#finish(entry, outcome),
      (error: unknown) => {
        this.#host.reportError(
          error,
          `prompt ${entry.promptId} of session ${this.#host.sessionId} failed to run`,
        );
        this.#finish(entry, {
          kind: "error",
          message: "The daemon could not run this prompt",
          code: DISPATCH_FAILED_CODE,
        });
      },
    );
  }

  #finish(entry: QueuedPrompt, outcome: TurnOutcome): void {
    if (this.#running !== entry) return; // failAll already ended it
    this.#running = undefined;
    this.#terminal(entry, outcome);
    this.#completed(entry, "completed");
    this.#pump();
  }

  #deadline(entry: QueuedPrompt, deadlineMs: number): void {
    entry.deadlineTimer = undefined;
    if (entry.terminal || this.#closed) return;
    const outcome: TurnOutcome = {
      kind: "error",
      message: `Prompt exceeded its ${deadlineMs}ms deadline`,
      code: DEADLINE_EXCEEDED_CODE,
    };
    const index = this.#queued.indexOf(entry);
    if (index !== -1) {
      this.#queued.splice(index, 1);
      this.#terminal(entry, outcome);
      this.#completed(entry, "cancelled");
      return;
    }
    // Running: report the deadline now; the queue still waits for the agent to stop before the
    // next prompt starts, so one session never has two turns in flight.
    this.#terminal(entry, outcome);
    this.#interrupt(entry);
  }

  #interrupt(entry: QueuedPrompt): void {
    entry.interrupted = true;
    this.#host.interrupt(entry);
  }

  #terminal(entry: QueuedPrompt, outcome: TurnOutcome): void {
    if (entry.deadlineTimer !== undefined) {
      this.#host.clock.clearTimeout(entry.deadlineTimer);
      entry.deadlineTimer = undefined;
    }
    if (entry.terminal) return;
    entry.terminal = true;
    if (outcome.kind === "complete") {
      this.#publish(entry, DaemonEventType.turnComplete, { stopReason: outcome.stopReason });
    } else {
      this.#publish(entry, DaemonEventType.turnError, {
        message: outcome.message,
        ...(outcome.code !== undefined ? { code: outcome.code } : {}),
      });
    }
    this.#host.onTurnEnd(entry, outcome);
  }

  /** The entry left the queue (every way out passes here once): its body leaves the budget too. */
  #completed(entry: QueuedPrompt, state: "completed" | "cancelled"): void {
    entry.releaseBody?.();
    entry.releaseBody = undefined;
    if (!entry.waited) return;
    this.#publish(entry, DaemonEventType.pendingPromptCompleted, { state });
  }

  /** A prompt's event: its data plus the session and prompt ids every prompt event carries. */
  #publish<T extends PromptEventType>(
    entry: QueuedPrompt,
    type: T,
    data: Omit<DaemonEventData<T>, "sessionId" | "promptId">,
  ): void {
    this.#host.publish(
      type,
      { sessionId: this.#host.sessionId, ...data, promptId: entry.promptId } satisfies PromptEventData,
      {
        promptId: entry.promptId,
        ...(entry.originatorClientId !== undefined ? { originatorClientId: entry.originatorClientId } : {}),
      },
    );
  }
}
