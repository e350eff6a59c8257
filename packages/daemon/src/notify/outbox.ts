// The durable outbox: notifications not delivered yet, so one that was due when the daemon crashed goes out
// after it restarts (no boot scan of sessions), and the ids of waiting questions and approvals already told
// (a restored daemon that asks one again does not tell it again). It is kept in the daemon's storage, chosen
// with the rest of it (core's OutboxStorage: `notify/outbox.jsonl` under QWEN_HOME, or rows of PostgreSQL
// shared by hosts; docs/storage.md "The notification outbox"): an `add` is durable before the notification
// counts as scheduled, a retry stores the whole entry, a close removes it. Delivery is at least once: a crash
// between a send and its close sends again (receivers deduplicate by the event's `id`).
// Loading claims the entries no live daemon holds (this one's, and, in a shared store, a dead host's), so a
// notification due on a host that died is delivered by the next daemon that opens the outbox, once: the
// entry moves to it, it is not copied. An entry this daemon lost to another (it was frozen past its claim)
// is left to its new holder.
import {
  type MemoryOutboxStorage,
  memoryOutboxStorage,
  type OutboxChange,
  type OutboxStorage,
} from "@qwen-daemon/core";
import { z } from "zod";
import { NotifyEvent } from "./notify-event.js";
import { MAX_TOLD, type OutboxEntry, type PlanAction } from "./notify-plan.js";

export type { OutboxRecord } from "@qwen-daemon/core";

/** One outbox entry as stored. */
export const OutboxEntryRecord = z.object({
  key: z.string().min(1),
  sender: z.string().min(1),
  event: NotifyEvent,
  dueAt: z.number(),
  attempts: z.number().int().min(0),
});

/** A stored entry, or undefined when it is not one (damaged: skipped and counted). */
export function decodeOutboxEntry(value: unknown): OutboxEntry | undefined {
  const parsed = OutboxEntryRecord.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** `told`: the ids of questions and approvals delivered (newest MAX_TOLD), so a restart does not tell them again. */
export type OutboxLoad = { entries: OutboxEntry[]; corrupt: number; told: string[] };

export interface NotifyOutbox {
  /** The entries to deliver that this outbox did not give out yet (and compacts the store). */
  load(): Promise<OutboxLoad>;
  /** Records what the planner decided; resolves once it is stored (an `add` durably). */
  write(actions: readonly PlanAction[]): Promise<void>;
}

export function notifyOutbox(storage: OutboxStorage<OutboxEntry>, log: (line: string) => void): NotifyOutbox {
  // The entries this daemon holds: a retry (which names only what changed) stores the whole entry, and a
  // claim again (after each lease renewal) gives out only what is new.
  const held = new Map<string, OutboxEntry>();
  let tail: Promise<void> = Promise.resolve();

  const changeOf = (action: PlanAction): OutboxChange<OutboxEntry> | undefined => {
    if (action.op === "add") return { op: "put", key: action.entry.key, item: action.entry };
    if (action.op === "close") return { op: "remove", key: action.key, reason: action.outcome };
    if (action.op === "told") return { op: "note", id: action.id };
    const entry = held.get(action.key);
    return entry === undefined
      ? undefined
      : { op: "update", key: action.key, item: { ...entry, attempts: action.attempts, dueAt: action.dueAt } };
  };

  // The planner's actions of one decision are one write: a delivery's close and its told land together.
  const apply = async (actions: readonly PlanAction[]): Promise<void> => {
    const changes = actions.flatMap((action) => changeOf(action) ?? []);
    const done = await storage.write(changes);
    changes.forEach((change, i) => {
      if (change.op === "put" || (change.op === "update" && done[i]))
        held.set(change.key, { ...change.item });
      else if (change.op === "update" || change.op === "remove") {
        held.delete(change.key);
        if (!done[i])
          log(`qwen serve: notify outbox: ${change.key} is held by another daemon now; left to it`);
      }
    });
  };

  return {
    async load() {
      const { items, corrupt } = await storage.claim();
      const entries: OutboxEntry[] = [];
      for (const { key, item } of items) {
        if (held.has(key)) continue;
        entries.push(item);
        held.set(key, { ...item });
      }
      return { entries, corrupt, told: await storage.notes(MAX_TOLD) };
    },
    write(actions) {
      // One write at a time, in order; a failed write is reported to its caller and does not stop the next.
      const run = tail.then(() => apply(actions));
      tail = run.catch(() => undefined);
      return run;
    },
  };
}

/**
 * An outbox in memory (tests; an embedder that wants no files). Over the `records` of another one, it is
 * that outbox opened again (a restart).
 */
export function memoryOutbox(
  records?: MemoryOutboxStorage<OutboxEntry>["records"],
  log: (line: string) => void = () => {},
): NotifyOutbox & { records: MemoryOutboxStorage<OutboxEntry>["records"] } {
  const storage = memoryOutboxStorage(decodeOutboxEntry, records === undefined ? {} : { records });
  return { ...notifyOutbox(storage, log), records: storage.records };
}
