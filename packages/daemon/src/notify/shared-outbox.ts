// The outbox kept in storage shared by hosts (PostgreSQL, docs/storage.md "The notification outbox"): the
// same NotifyOutbox the notifier uses with a file, over core's SharedOutbox. Loading claims the entries no
// live daemon holds (this one's, and a dead host's), so a notification that was due on a host that died is
// delivered by the next daemon that opens the outbox, once: the entry moves to it, it is not copied. An entry
// this daemon lost to another (it was frozen past its claim) is left to its new holder.
import type { SharedOutbox } from "@qwen-daemon/core";
import { MAX_TOLD, type OutboxEntry, type PlanAction } from "./notify-plan.js";
import { type NotifyOutbox, OutboxEntryRecord } from "./outbox.js";

export function sharedOutbox(outbox: SharedOutbox, log: (line: string) => void): NotifyOutbox {
  // The entries this daemon holds, so a retry (which names only what changed) can store the whole entry.
  const held = new Map<string, OutboxEntry>();
  let tail: Promise<void> = Promise.resolve();
  const lost = (key: string) =>
    log(`qwen serve: notify outbox: ${key} is held by another daemon now; left to it`);

  const apply = async (action: PlanAction): Promise<void> => {
    if (action.op === "add") {
      await outbox.put(action.entry.key, JSON.stringify(action.entry));
      held.set(action.entry.key, { ...action.entry });
    } else if (action.op === "retry") {
      const entry = held.get(action.key);
      if (entry === undefined) return;
      Object.assign(entry, { attempts: action.attempts, dueAt: action.dueAt });
      if (!(await outbox.update(action.key, JSON.stringify(entry)))) {
        held.delete(action.key);
        lost(action.key);
      }
    } else if (action.op === "close") {
      held.delete(action.key);
      if (!(await outbox.remove(action.key))) lost(action.key);
    } else {
      await outbox.note(action.id);
    }
  };

  return {
    // Every call claims again (Notifier.adopt runs it after each lease renewal); it returns only the entries
    // this process did not hold yet.
    async load() {
      const claimed = await outbox.claim();
      const entries: OutboxEntry[] = [];
      let corrupt = 0;
      for (const { key, item } of claimed) {
        if (held.has(key)) continue;
        const parsed = parseEntry(item);
        if (parsed === undefined) corrupt += 1;
        else {
          entries.push(parsed);
          held.set(parsed.key, { ...parsed });
        }
      }
      return { entries, corrupt, told: await outbox.notes(MAX_TOLD) };
    },
    write(actions) {
      // One write at a time, in order; a failed write is reported to its caller and does not stop the next.
      const run = tail.then(async () => {
        for (const action of actions) await apply(action);
      });
      tail = run.catch(() => undefined);
      return run;
    },
  };
}

function parseEntry(text: string): OutboxEntry | undefined {
  try {
    const parsed = OutboxEntryRecord.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
