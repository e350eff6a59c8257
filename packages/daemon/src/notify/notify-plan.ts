// When each notification goes out, pure: a waiting question or approval is due after the delay (and never
// if it is answered first), a turn's end at once; a failed delivery is tried again with a growing pause, a
// bounded number of times; at most a bounded number are open at once. One entry per notification and
// receiver, so a webhook that fails does not hold back the command. Every change is returned as an action
// for the durable outbox; the notifier does the I/O (outbox, timers, delivery).
import type { NotifyEvent } from "./notify-event.js";

export type OutboxEntry = {
  /** Unique per notification and receiver. */
  key: string;
  /** Which receiver: "command" or "webhook". */
  sender: string;
  event: NotifyEvent;
  /** When to (next) try, epoch ms. */
  dueAt: number;
  /** Failed attempts so far. */
  attempts: number;
};

export type CloseOutcome = "delivered" | "cancelled" | "superseded" | "failed" | "dropped";

export type PlanAction =
  | { op: "add"; entry: OutboxEntry }
  | { op: "retry"; key: string; attempts: number; dueAt: number }
  | { op: "close"; key: string; outcome: CloseOutcome }
  /** A waiting question or approval (by its stable id) reached a receiver: asked again, it is not told again. */
  | { op: "told"; id: string };

export type PlannerOptions = {
  senders: readonly string[];
  /** Waiting questions and approvals are told only if still unanswered this long after they were asked. */
  delayMs: number;
  newKey: () => string;
  /** Deliveries tried at most this many times in all. */
  maxAttempts?: number;
  /** Open notifications at most; past it the oldest is dropped. */
  maxOpen?: number;
  /** Pause before retry `n` (1-based). */
  backoffMs?: (attempt: number) => number;
};

export const DEFAULT_MAX_ATTEMPTS = 8;
export const DEFAULT_MAX_OPEN = 1000;
/** Ids of questions and approvals told, kept (the newest) so a restart's re-ask is not pushed twice. */
export const MAX_TOLD = 1000;
/** 1 s, 2 s, 4 s … capped at 60 s: about four minutes over eight attempts. */
export const defaultBackoffMs = (attempt: number): number => Math.min(60_000, 1000 * 2 ** (attempt - 1));

const WAITING = new Set(["question_waiting", "approval_waiting"]);

export class NotifyPlanner {
  readonly #options: Required<PlannerOptions>;
  /** Open entries in the order they were added (oldest first). */
  readonly #open = new Map<string, OutboxEntry>();
  readonly #inFlight = new Set<string>();
  /** Stable ids of waiting questions and approvals delivered to a receiver, oldest first. */
  readonly #told = new Set<string>();

  constructor(options: PlannerOptions) {
    this.#options = {
      maxAttempts: DEFAULT_MAX_ATTEMPTS,
      maxOpen: DEFAULT_MAX_OPEN,
      backoffMs: defaultBackoffMs,
      ...options,
    };
  }

  get open(): OutboxEntry[] {
    return [...this.#open.values()];
  }

  /**
   * The entries the outbox held at start: still due (at once, if their time passed while we were down);
   * `told`: the questions and approvals delivered before.
   */
  load(entries: readonly OutboxEntry[], told: readonly string[] = []): PlanAction[] {
    for (const id of told) this.#remember(id);
    const actions: PlanAction[] = [];
    for (const entry of entries) {
      if (!this.#options.senders.includes(entry.sender)) {
        // A receiver no longer configured: nobody to deliver to.
        actions.push({ op: "close", key: entry.key, outcome: "dropped" });
        continue;
      }
      this.#open.set(entry.key, { ...entry });
    }
    return [...actions, ...this.#bound()];
  }

  /**
   * A new event to tell: one entry per receiver. A question asked again replaces what was still pending; asked
   * again by a restore after it was delivered, it is not told again (the person has it, and its answer links
   * name it by its tool call, so they still work).
   */
  notify(event: NotifyEvent, now: number): PlanAction[] {
    const actions: PlanAction[] = [];
    const waiting = WAITING.has(event.type);
    if (waiting && event.restored && this.#told.has(event.id)) return [];
    for (const entry of [...this.#open.values()]) {
      if (entry.event.id === event.id && !this.#inFlight.has(entry.key)) {
        this.#open.delete(entry.key);
        actions.push({ op: "close", key: entry.key, outcome: "superseded" });
      }
    }
    for (const sender of this.#options.senders) {
      const entry: OutboxEntry = {
        key: this.#options.newKey(),
        sender,
        event,
        dueAt: now + (waiting ? this.#options.delayMs : 0),
        attempts: 0,
      };
      this.#open.set(entry.key, entry);
      actions.push({ op: "add", entry });
    }
    return [...actions, ...this.#bound()];
  }

  /** The question or approval was answered (or ended): what was not sent yet is not sent. */
  resolved(sessionId: string, requestId: string): PlanAction[] {
    const actions: PlanAction[] = [];
    for (const entry of [...this.#open.values()]) {
      const e = entry.event;
      if (e.sessionId !== sessionId || e.requestId !== requestId || this.#inFlight.has(entry.key)) continue;
      this.#open.delete(entry.key);
      actions.push({ op: "close", key: entry.key, outcome: "cancelled" });
    }
    return actions;
  }

  /** Entries due by `now`, now in flight (not offered again until delivered or failed). */
  takeDue(now: number): OutboxEntry[] {
    const due = [...this.#open.values()].filter((e) => e.dueAt <= now && !this.#inFlight.has(e.key));
    for (const e of due) this.#inFlight.add(e.key);
    return due;
  }

  /** When the next entry falls due, if any is waiting (in-flight ones are not). */
  nextDueAt(): number | undefined {
    let next: number | undefined;
    for (const e of this.#open.values()) {
      if (this.#inFlight.has(e.key)) continue;
      if (next === undefined || e.dueAt < next) next = e.dueAt;
    }
    return next;
  }

  delivered(key: string): PlanAction[] {
    this.#inFlight.delete(key);
    const entry = this.#open.get(key);
    if (!entry) return [];
    this.#open.delete(key);
    const actions: PlanAction[] = [{ op: "close", key, outcome: "delivered" }];
    const { id, type } = entry.event;
    if (WAITING.has(type) && !this.#told.has(id)) {
      this.#remember(id);
      actions.push({ op: "told", id });
    }
    return actions;
  }

  /** The told ids, oldest first (what a compacted outbox keeps). */
  get told(): string[] {
    return [...this.#told];
  }

  #remember(id: string): void {
    this.#told.delete(id);
    this.#told.add(id);
    for (const oldest of this.#told) {
      if (this.#told.size <= MAX_TOLD) break;
      this.#told.delete(oldest);
    }
  }

  failed(key: string, now: number): PlanAction[] {
    this.#inFlight.delete(key);
    const entry = this.#open.get(key);
    if (!entry) return [];
    entry.attempts += 1;
    if (entry.attempts >= this.#options.maxAttempts) {
      this.#open.delete(key);
      return [{ op: "close", key, outcome: "failed" }];
    }
    entry.dueAt = now + this.#options.backoffMs(entry.attempts);
    return [{ op: "retry", key, attempts: entry.attempts, dueAt: entry.dueAt }];
  }

  /** Drops the oldest open entries (not in flight) past the cap. */
  #bound(): PlanAction[] {
    const actions: PlanAction[] = [];
    for (const entry of this.#open.values()) {
      if (this.#open.size <= this.#options.maxOpen) break;
      if (this.#inFlight.has(entry.key)) continue;
      this.#open.delete(entry.key);
      actions.push({ op: "close", key: entry.key, outcome: "dropped" });
    }
    return actions;
  }
}
