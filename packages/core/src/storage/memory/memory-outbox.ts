// A notification outbox in memory (outbox-storage.ts), for tests and a daemon that wants no files: the same
// records as the JSONL file (outbox-records.ts) kept in an array, so code over it meets the same loads.
// Durable only as long as the process. Two outboxes over one array are one store opened twice (a restart).
import type { OutboxRecord } from "../outbox-records.js";
import type { OutboxStorage } from "../outbox-storage.js";
import { RecordOutbox } from "../record-outbox.js";
import type { LogDecoder } from "../session-storage.js";

export interface MemoryOutboxOptions {
  /** The records, shared with another outbox over the same array (default: a new, empty one). */
  records?: OutboxRecord[];
  /** Called after each durable write, before it resolves (the contract suite's probe). */
  onSync?: () => void;
}

export type MemoryOutboxStorage<T> = OutboxStorage<T> & {
  /** What is stored, in order; a test may push a damaged record. */
  readonly records: OutboxRecord[];
};

export function memoryOutboxStorage<T>(
  decode: LogDecoder<T>,
  options: MemoryOutboxOptions = {},
): MemoryOutboxStorage<T> {
  const records = options.records ?? [];
  // Stored as JSON would be: a later change to an object passed in is not stored.
  const copy = (list: readonly OutboxRecord[]): OutboxRecord[] => JSON.parse(JSON.stringify(list));
  const outbox = new RecordOutbox(
    {
      where: "memory",
      read: async () => ({ values: copy(records), torn: 0 }),
      async append(list, durable) {
        records.push(...copy(list));
        if (durable) options.onSync?.();
      },
      async replace(list) {
        records.splice(0, records.length, ...copy(list));
        options.onSync?.();
      },
    },
    decode,
  );
  return Object.assign(outbox, { records });
}
