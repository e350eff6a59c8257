// Tells people outside the page that the agent waits for them, or finished: it watches every session's
// events, asks the planner what to send when, keeps what is not delivered yet in the durable outbox, and
// delivers with the senders. Nothing here runs on a turn's path: `observe` only plans and queues; writes,
// timers and deliveries happen on their own, and a receiver that fails or hangs is retried with backoff and
// never slows a turn. At start it takes back what the outbox held (a notification due when the daemon
// crashed is delivered now); it never scans sessions.

import { randomUUID } from "node:crypto";
import type { NotifyAction, OfferedPermissionOption } from "@qwen-daemon/core/protocol";
import { DaemonEventType } from "@qwen-daemon/core/protocol";
import type { Clock, TimerHandle } from "../events/clock.js";
import type { DaemonEvent } from "../events/daemon-event.js";
import { type NotifyEvent, type NotifySource, notifyEventFor, offeredOptionsOf } from "./notify-event.js";
import { NotifyPlanner, type OutboxEntry, type PlanAction } from "./notify-plan.js";
import type { NotifyOutbox } from "./outbox.js";
import type { Sender } from "./senders.js";

export type NotifierOptions = {
  senders: readonly Sender[];
  outbox: NotifyOutbox;
  /** Questions and approvals are told only if still unanswered after this long. */
  delayMs: number;
  clock: Clock;
  log: (line: string) => void;
  /** The address people open the web client at (read when an event is built: known once listening). */
  linkBase: () => string;
  /** The answer actions of a waiting question or approval (links/link-actions.ts); none when absent. */
  actionsFor?:
    | ((event: NotifyEvent, offered: readonly OfferedPermissionOption[]) => NotifyAction[])
    | undefined;
  newKey?: () => string;
  maxAttempts?: number;
  backoffMs?: (attempt: number) => number;
};

export type NotifierStats = { open: number; delivered: number; failed: number; retried: number };

export class Notifier {
  readonly #options: NotifierOptions;
  readonly #planner: NotifyPlanner;
  readonly #senders: Map<string, Sender>;
  /** Events seen before the outbox was loaded, applied right after. */
  #early: { source: NotifySource; event: DaemonEvent }[] | undefined = [];
  #timer: TimerHandle | undefined;
  #timerAt: number | undefined;
  #closed = false;
  #writes: Promise<void> = Promise.resolve();
  readonly #stats: NotifierStats = { open: 0, delivered: 0, failed: 0, retried: 0 };

  constructor(options: NotifierOptions) {
    this.#options = options;
    this.#senders = new Map(options.senders.map((s) => [s.name, s]));
    this.#planner = new NotifyPlanner({
      senders: options.senders.map((s) => s.name),
      delayMs: options.delayMs,
      newKey: options.newKey ?? randomUUID,
      ...(options.maxAttempts !== undefined ? { maxAttempts: options.maxAttempts } : {}),
      ...(options.backoffMs !== undefined ? { backoffMs: options.backoffMs } : {}),
    });
  }

  get stats(): NotifierStats {
    return { ...this.#stats, open: this.#planner.open.length };
  }

  /** Takes back what the outbox held and starts delivering. */
  async start(): Promise<void> {
    try {
      const { entries, corrupt, told } = await this.#options.outbox.load();
      if (corrupt > 0) this.#options.log(`qwen serve: notify outbox: skipped ${corrupt} unreadable line(s)`);
      if (entries.length > 0)
        this.#options.log(`qwen serve: notify outbox: ${entries.length} notification(s) to deliver`);
      this.#persist(this.#planner.load(entries, told));
    } catch (error) {
      this.#options.log(`qwen serve: notify outbox could not be read, starting empty: ${reason(error)}`);
    }
    const early = this.#early ?? [];
    this.#early = undefined;
    for (const { source, event } of early) this.observe(source, event);
    this.#schedule();
  }

  /**
   * Takes over what the outbox holds now and this notifier does not: with an outbox shared by hosts, the
   * notifications of a daemon that died since this one started (its claims ran out). Never rejects.
   */
  async adopt(): Promise<void> {
    if (this.#closed || this.#early !== undefined) return;
    try {
      const { entries, told } = await this.#options.outbox.load();
      if (entries.length === 0) return;
      this.#options.log(`qwen serve: notify outbox: took over ${entries.length} notification(s) to deliver`);
      this.#persist(this.#planner.load(entries, told));
      this.#schedule();
    } catch (error) {
      this.#options.log(`qwen serve: notify outbox could not be read: ${reason(error)}`);
    }
  }

  /** Every session event passes here. Synchronous and never throws: it must not disturb the event's path. */
  observe(source: NotifySource, event: DaemonEvent): void {
    if (this.#closed) return;
    if (this.#early) {
      this.#early.push({ source, event });
      return;
    }
    try {
      if (
        event.type === DaemonEventType.permissionResolved ||
        event.type === DaemonEventType.permissionAlreadyResolved
      ) {
        const requestId = event.data.requestId;
        if (typeof requestId === "string") this.#persist(this.#planner.resolved(source.sessionId, requestId));
        return;
      }
      const notification = notifyEventFor(source, event, this.#options.linkBase());
      if (notification === undefined) return;
      const actions = this.#options.actionsFor?.(notification, offeredOptionsOf(event)) ?? [];
      if (actions.length > 0) notification.actions = actions;
      this.#persist(this.#planner.notify(notification, this.#options.clock.now()));
      this.#schedule();
    } catch (error) {
      this.#options.log(
        `qwen serve: notify: could not plan for ${event.type} of ${source.sessionId}: ${reason(error)}`,
      );
    }
  }

  /** Stops timers; what is not delivered stays in the outbox for the next start. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer !== undefined) this.#options.clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#writes;
  }

  #persist(actions: PlanAction[]): void {
    if (actions.length === 0) return;
    for (const a of actions) {
      if (a.op === "close" && a.outcome === "failed") {
        this.#options.log(`qwen serve: notify: gave up on ${a.key} after the last attempt`);
      }
    }
    const write = this.#writes.then(() => this.#options.outbox.write(actions));
    this.#writes = write.catch((error: unknown) => {
      // Delivery goes on from memory; only a crash before the next good write could lose this change.
      this.#options.log(`qwen serve: notify outbox write failed: ${reason(error)}`);
    });
  }

  /** One timer, for the earliest due entry. */
  #schedule(): void {
    if (this.#closed) return;
    const next = this.#planner.nextDueAt();
    if (next === undefined || next === this.#timerAt) return;
    if (this.#timer !== undefined) this.#options.clock.clearTimeout(this.#timer);
    const { clock } = this.#options;
    this.#timerAt = next;
    this.#timer = clock.setTimeout(
      () => {
        this.#timer = undefined;
        this.#timerAt = undefined;
        this.#fire();
      },
      Math.max(0, next - clock.now()),
    );
  }

  #fire(): void {
    if (this.#closed) return;
    for (const entry of this.#planner.takeDue(this.#options.clock.now())) void this.#deliver(entry);
    this.#schedule();
  }

  async #deliver(entry: OutboxEntry): Promise<void> {
    const sender = this.#senders.get(entry.sender);
    const attempt = entry.attempts + 1;
    try {
      if (!sender) throw new Error(`no receiver named ${entry.sender}`);
      // Only once the add is durable: a notification is never sent that a crash could not also resend.
      await this.#writes;
      await sender.send(entry.event);
      this.#stats.delivered += 1;
      this.#persist(this.#planner.delivered(entry.key));
    } catch (error) {
      const actions = this.#planner.failed(entry.key, this.#options.clock.now());
      const retry = actions.find((a) => a.op === "retry");
      if (retry) this.#stats.retried += 1;
      else this.#stats.failed += 1;
      this.#options.log(
        `qwen serve: notify: ${entry.event.type} ${entry.event.id} to the ${entry.sender} failed (attempt ${attempt}): ${reason(error)}`,
      );
      this.#persist(actions);
    }
    this.#schedule();
  }
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
