// How the JSONL and memory outboxes keep their items: a list of records, appended as writes come and folded
// into the items held when loaded, then compacted to only those. The records are the lines of
// `$QWEN_HOME/notify/outbox.jsonl` (docs/protocol.md "On disk"), so what every earlier version wrote loads:
//   {"op":"add","key":k,"entry":item}     put (a line written before `key` was added names it in entry.key)
//   {"op":"update","key":k,"entry":item}  update: the whole item
//   {"op":"retry","key":k,"attempts":n,"dueAt":ms}  how earlier versions updated: two fields of the item
//   {"op":"close","key":k,"outcome":why}  remove
//   {"op":"told","id":id}                 note
// Pure: no I/O.
import { z } from "zod";
import { OUTBOX_NOTES_KEPT } from "./outbox-storage.js";

const Key = z.string().min(1);
export const OutboxRecord = z.discriminatedUnion("op", [
  z.object({ op: z.literal("add"), key: Key.optional(), entry: z.unknown() }),
  z.object({ op: z.literal("update"), key: Key, entry: z.unknown() }),
  z.object({
    op: z.literal("retry"),
    key: z.string(),
    attempts: z.number().int().min(0),
    dueAt: z.number(),
  }),
  z.object({ op: z.literal("close"), key: z.string(), outcome: z.string().optional() }),
  z.object({ op: z.literal("told"), id: Key }),
]);
export type OutboxRecord = z.infer<typeof OutboxRecord>;

/** What a list of records leaves: the items held (raw JSON, in put order) and the noted ids, oldest first. */
export interface OutboxState {
  open: Map<string, unknown>;
  told: Set<string>;
}

/** Folds records into `state`; returns how many were not records (torn, foreign). */
export function foldOutboxRecords(values: Iterable<unknown>, state: OutboxState): number {
  let corrupt = 0;
  for (const value of values) {
    const parsed = OutboxRecord.safeParse(value);
    if (!parsed.success || !applyOutboxRecord(parsed.data, state)) corrupt += 1;
  }
  return corrupt;
}

/** Applies one record; false when it is an `add` that names no key. */
export function applyOutboxRecord(record: OutboxRecord, { open, told }: OutboxState): boolean {
  switch (record.op) {
    case "add": {
      const key = record.key ?? keyInside(record.entry);
      if (key === undefined || record.entry === undefined) return false;
      open.set(key, record.entry);
      return true;
    }
    case "update":
      if (open.has(record.key)) open.set(record.key, record.entry);
      return true;
    case "retry": {
      const item = open.get(record.key);
      if (isObject(item)) open.set(record.key, { ...item, attempts: record.attempts, dueAt: record.dueAt });
      return true;
    }
    case "close":
      open.delete(record.key);
      return true;
    case "told":
      told.delete(record.id);
      told.add(record.id);
      for (const oldest of told) {
        if (told.size <= OUTBOX_NOTES_KEPT) break;
        told.delete(oldest);
      }
      return true;
  }
}

/** The records that hold `state` and nothing else (what a compaction writes). */
export function compactOutboxRecords({ open, told }: OutboxState): OutboxRecord[] {
  return [
    ...[...told].map((id): OutboxRecord => ({ op: "told", id })),
    ...[...open].map(([key, entry]): OutboxRecord => ({ op: "add", key, entry })),
  ];
}

function keyInside(entry: unknown): string | undefined {
  const key = isObject(entry) ? entry.key : undefined;
  return typeof key === "string" && key !== "" ? key : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
