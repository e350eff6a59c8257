// The durable outbox: notifications not delivered yet, so one that was due when the daemon crashed goes out
// after it restarts (no boot scan of sessions). `$QWEN_HOME/notify/outbox.jsonl`, one JSON record per line:
// `add` (fsynced before the notification counts as scheduled), `retry`, `close` and `told` (a waiting question
// or approval was delivered: a restored daemon that asks it again does not tell it again). Loading folds the
// lines into the open entries and the newest told ids and rewrites the file with only those, so it stays
// small; a torn or foreign line is
// skipped and counted. Delivery is at least once: a crash between a send and its `close` line sends again
// (receivers deduplicate by the event's `id`). The file steps go through core's DurableFs: the `notify/`
// folder, the file's name and the compaction's rename are durable on power loss, not only the lines.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { DurableFs } from "@qwen-daemon/core";
import { z } from "zod";
import { NotifyEvent } from "./notify-event.js";
import { MAX_TOLD, type OutboxEntry, type PlanAction } from "./notify-plan.js";

/** One outbox entry as stored (an `add` line, a shared outbox item). */
export const OutboxEntryRecord = z.object({
  key: z.string().min(1),
  sender: z.string().min(1),
  event: NotifyEvent,
  dueAt: z.number(),
  attempts: z.number().int().min(0),
});
export const OutboxRecord = z.discriminatedUnion("op", [
  z.object({ op: z.literal("add"), entry: OutboxEntryRecord }),
  z.object({ op: z.literal("retry"), key: z.string(), attempts: z.number().int().min(0), dueAt: z.number() }),
  z.object({
    op: z.literal("close"),
    key: z.string(),
    outcome: z.enum(["delivered", "cancelled", "superseded", "failed", "dropped"]),
  }),
  z.object({ op: z.literal("told"), id: z.string().min(1) }),
]);
export type OutboxRecord = z.infer<typeof OutboxRecord>;

/** `told`: the ids of questions and approvals delivered (newest MAX_TOLD), so a restart does not tell them again. */
export type OutboxLoad = { entries: OutboxEntry[]; corrupt: number; told: string[] };

export interface NotifyOutbox {
  /** The open entries (and compacts the store). */
  load(): Promise<OutboxLoad>;
  /** Records what the planner decided; resolves once it is stored (an `add` durably). */
  write(actions: readonly PlanAction[]): Promise<void>;
}

/** The open entries a sequence of outbox lines leaves, in the order they were added. Pure. */
export function foldOutbox(lines: readonly string[]): OutboxLoad {
  const open = new Map<string, OutboxEntry>();
  const told = new Set<string>();
  let corrupt = 0;
  for (const line of lines) {
    if (line.trim() === "") continue;
    let parsed: ReturnType<typeof OutboxRecord.safeParse>;
    try {
      parsed = OutboxRecord.safeParse(JSON.parse(line));
    } catch {
      corrupt += 1;
      continue;
    }
    if (!parsed.success) {
      corrupt += 1;
      continue;
    }
    const record = parsed.data;
    if (record.op === "add") open.set(record.entry.key, record.entry);
    else if (record.op === "close") open.delete(record.key);
    else if (record.op === "told") {
      told.delete(record.id);
      told.add(record.id);
    } else {
      const entry = open.get(record.key);
      if (entry) Object.assign(entry, { attempts: record.attempts, dueAt: record.dueAt });
    }
  }
  return { entries: [...open.values()], corrupt, told: [...told].slice(-MAX_TOLD) };
}

export function outboxPath(qwenHome: string): string {
  return join(qwenHome, "notify", "outbox.jsonl");
}

/** Rewrites the file with only the open entries once this many lines were appended since the last time. */
const COMPACT_AFTER_LINES = 2000;

/** `fs` is the daemon's DurableFs (the one its session storage uses, so a recorder sees every step). */
export function fileOutbox(qwenHome: string, fs: DurableFs = new DurableFs()): NotifyOutbox {
  const path = outboxPath(qwenHome);
  const files = { root: qwenHome, fileMode: 0o600, dirMode: 0o700 };
  let tail: Promise<void> = Promise.resolve();
  let appended = 0;

  const rewrite = async ({ entries, told }: Pick<OutboxLoad, "entries" | "told">) => {
    const text = [
      ...told.map((id) => `${JSON.stringify({ op: "told", id })}\n`),
      ...entries.map((entry) => `${JSON.stringify({ op: "add", entry })}\n`),
    ].join("");
    await fs.replaceFile(path, text, files);
    appended = 0;
  };

  const readLines = async (): Promise<string[]> => {
    try {
      return (await readFile(path, "utf8")).split("\n");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
  };

  const append = async (actions: readonly PlanAction[]) => {
    if (actions.length === 0) return;
    // What must survive a crash is a scheduled notification; a lost close only means a duplicate.
    await fs.appendText(path, actions.map((a) => `${JSON.stringify(a)}\n`).join(""), {
      ...files,
      durable: actions.some((a) => a.op === "add"),
    });
    appended += actions.length;
    if (appended >= COMPACT_AFTER_LINES) await rewrite(foldOutbox(await readLines()));
  };

  // One write at a time, in order; a failed write is reported to its caller and does not stop the next.
  const serial = <T>(run: () => Promise<T>): Promise<T> => {
    const result = tail.then(run);
    tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  };

  return {
    load: () =>
      serial(async () => {
        const folded = foldOutbox(await readLines());
        await rewrite(folded);
        return folded;
      }),
    write: (actions) => serial(() => append(actions)),
  };
}

/** An outbox in memory (tests; an embedder that wants no files). */
export function memoryOutbox(
  initial: readonly OutboxRecord[] = [],
): NotifyOutbox & { records: OutboxRecord[] } {
  const records: OutboxRecord[] = [...initial];
  return {
    records,
    load: async () => foldOutbox(records.map((r) => JSON.stringify(r))),
    write: async (actions) => {
      records.push(...actions);
    },
  };
}
