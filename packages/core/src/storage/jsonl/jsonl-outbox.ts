// The JSONL backend of the notification outbox (outbox-storage.ts): `$QWEN_HOME/notify/outbox.jsonl`, one
// record per line (outbox-records.ts, docs/protocol.md "On disk"), mode 0600. A `put` is appended and fsynced
// before it resolves; the other records are appended without an fsync (a lost one only means a duplicate).
// Loading folds the lines and rewrites the file with only what is held; a torn or foreign line is skipped
// and counted. Every file step goes through DurableFs: the `notify/` folder, the file's name and the
// compaction's rename are durable on power loss too, not only the lines.
import { readFile } from "node:fs/promises";
import { DurableFs } from "../durable-fs.js";
import type { OutboxRecord } from "../outbox-records.js";
import type { OutboxStorage } from "../outbox-storage.js";
import { RecordOutbox } from "../record-outbox.js";
import type { LogDecoder } from "../session-storage.js";
import { outboxPath } from "./paths.js";

export interface JsonlOutboxOptions {
  /** The process's DurableFs (the one its session storage uses, so a recorder sees every step). */
  fs?: DurableFs;
}

export function jsonlOutboxStorage<T>(
  qwenHome: string,
  decode: LogDecoder<T>,
  options: JsonlOutboxOptions = {},
): OutboxStorage<T> {
  const path = outboxPath(qwenHome);
  const fs = options.fs ?? new DurableFs();
  const files = { root: qwenHome, fileMode: 0o600, dirMode: 0o700 };
  const lines = (records: readonly OutboxRecord[]) => records.map((r) => `${JSON.stringify(r)}\n`).join("");
  return new RecordOutbox(
    {
      where: path,
      async read() {
        let text: string;
        try {
          text = await readFile(path, "utf8");
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === "ENOENT") return { values: [], torn: 0 };
          throw error;
        }
        const values: unknown[] = [];
        let torn = 0;
        for (const line of text.split("\n")) {
          if (line.trim() === "") continue;
          try {
            values.push(JSON.parse(line));
          } catch {
            torn += 1;
          }
        }
        return { values, torn };
      },
      append: (records, durable) => fs.appendText(path, lines(records), { ...files, durable }),
      replace: (records) => fs.replaceFile(path, lines(records), files),
    },
    decode,
  );
}
