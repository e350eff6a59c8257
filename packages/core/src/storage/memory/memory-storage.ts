// A SessionStorage in memory, for tests and for a process that keeps nothing (a daemon without a storage
// root): the same contract as the other backends (testing/storage-contract.ts), durable only as long as the
// process. Items are kept as the JSON text an append serialized, so an item is taken as it was when appended
// and reads decode it as a file or a row would be; a log can be damaged the way a crash leaves a file (a
// last item cut short, a line that is not an item), so code over it meets the same reads.
import { isAbsolute } from "node:path";
import { logItemText } from "../log-item-text.js";
import { assertValidSessionId } from "../session-id.js";
import type {
  LogAppendOptions,
  LogDecoder,
  LogOpenOptions,
  LogRead,
  SessionKey,
  SessionLog,
  SessionLogKind,
  SessionStorage,
  StoredSession,
} from "../session-storage.js";
import { SessionLogNotFoundError } from "../session-storage.js";
import { WriteQueue } from "../write-queue.js";

/** One stored item: its text, and whether it was cut short (a crash mid-write). */
interface StoredItem {
  text: string;
  torn?: true;
  /** When it was written, across every log of the storage (peekAll's order). */
  seq?: number;
}

interface StoredLog {
  items: StoredItem[];
  updatedAt: string;
}

export interface MemoryStorageOptions {
  /** Called after each durable append or replacement, before it resolves (the contract suite's probe). */
  onSync?: (where: string) => void;
  /** The time of a write (default: now). */
  now?: () => Date;
}

export interface MemorySessionStorage extends SessionStorage {
  /** Damages a log after what it holds: a last item cut short (`torn`) or an item that is not one (`corrupt`). */
  damage(key: SessionKey, kind: SessionLogKind, how: "torn" | "corrupt"): void;
  /** The decoded items of a log, now, without waiting (tests that look inside; [] for no log). */
  peek<T>(key: SessionKey, kind: SessionLogKind, decode: LogDecoder<T>): T[];
  /** The decoded items of every log of `kind`, in the order they were written (a journal's whole view). */
  peekAll<T>(kind: SessionLogKind, decode: LogDecoder<T>): T[];
}

export function memorySessionStorage(options: MemoryStorageOptions = {}): MemorySessionStorage {
  const logs = new Map<string, StoredLog>();
  let seq = 0;
  const now = options.now ?? (() => new Date());
  const whereOf = (key: SessionKey, kind: SessionLogKind) => {
    assertValidSessionId(key.sessionId);
    if (!isAbsolute(key.cwd) || key.cwd.includes("\0"))
      throw new Error(`Session cwd must be an absolute path without NUL, got ${JSON.stringify(key.cwd)}`);
    return `memory:${kind}/${key.sessionId} (${key.cwd})`;
  };
  const store: LogStore = {
    get: (where) => logs.get(where),
    write(where, items) {
      if (items.length === 0) logs.delete(where);
      else
        logs.set(where, {
          items: items.map((item) => ({ ...item, seq: seq++ })),
          updatedAt: now().toISOString(),
        });
    },
    append(where, text) {
      const log = logs.get(where);
      if (log === undefined) return store.write(where, [{ text }]);
      // A torn last item stays where it is (a corrupt item now); the new one is whole after it.
      const last = log.items[log.items.length - 1];
      if (last?.torn === true) log.items[log.items.length - 1] = { text: last.text, seq: last.seq ?? 0 };
      log.items.push({ text, seq: seq++ });
      log.updatedAt = now().toISOString();
    },
    synced: (where) => options.onSync?.(where),
  };
  return {
    log: (key, kind, decode, open = {}) => new MemorySessionLog(whereOf(key, kind), decode, store, open),
    async listSessions(cwd) {
      const sessions: StoredSession[] = [];
      for (const [where, log] of logs) {
        // Session ids hold no space (protocol/ids.ts), so the first " (" ends the id.
        const match = /^memory:transcript\/(.+?) \((.*)\)$/s.exec(where);
        if (match?.[2] === cwd) sessions.push({ sessionId: match[1] as string, updatedAt: log.updatedAt });
      }
      return sessions;
    },
    damage(key, kind, how) {
      const where = whereOf(key, kind);
      const bad: StoredItem = how === "torn" ? { text: '{"cut sh', torn: true } : { text: "not an item" };
      const log = logs.get(where);
      if (log === undefined) store.write(where, [bad]);
      else log.items.push({ ...bad, seq: seq++ });
    },
    peek(key, kind, decode) {
      return decodeAll(logs.get(whereOf(key, kind))?.items ?? [], decode).items;
    },
    peekAll(kind, decode) {
      const prefix = `memory:${kind}/`;
      const items = [...logs].flatMap(([where, log]) => (where.startsWith(prefix) ? log.items : []));
      items.sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
      return decodeAll(items, decode).items;
    },
  };
}

interface LogStore {
  get(where: string): StoredLog | undefined;
  /** Stores the log's items (none removes it). */
  write(where: string, items: StoredItem[]): void;
  append(where: string, text: string): void;
  synced(where: string): void;
}

class MemorySessionLog<T> implements SessionLog<T> {
  /** Writes of this handle in call order (they are synchronous, but a replacement orders appends after it). */
  readonly #writes = new WriteQueue();

  constructor(
    readonly where: string,
    private readonly decode: LogDecoder<T>,
    private readonly store: LogStore,
    private readonly open: LogOpenOptions,
  ) {}

  append(item: T, options: LogAppendOptions = {}): Promise<void> {
    let text: string;
    try {
      text = logItemText(item);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#writes.run(() => {
      this.store.append(this.where, text);
      if (options.durable === true || this.open.everyAppendDurable === true) this.store.synced(this.where);
    });
  }

  async read(): Promise<LogRead<T>> {
    return decodeAll(this.#items(), this.decode);
  }

  async readTail(count: number): Promise<LogRead<T>> {
    const items = this.#items();
    const read = decodeAll(items, this.decode);
    // The counts cover only what was looked at: a tail of `count` decoded items and what lies between them.
    if (read.items.length <= count) return read;
    return decodeAll(tailHolding(items, count, this.decode), this.decode);
  }

  async scan(visit: (item: T) => boolean | undefined): Promise<void> {
    for (const item of decodeAll(this.#items(), this.decode).items) if (visit(item) === false) return;
  }

  async exists(): Promise<boolean> {
    return this.store.get(this.where) !== undefined;
  }

  replace(items: readonly T[]): Promise<void> {
    let texts: StoredItem[];
    try {
      texts = items.map((item) => ({ text: logItemText(item) }));
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#writes.run(() => {
      this.store.write(this.where, texts);
      this.store.synced(this.where);
    });
  }

  async close(): Promise<void> {
    await this.#writes.drained();
  }

  #items(): StoredItem[] {
    const log = this.store.get(this.where);
    if (log === undefined) throw new SessionLogNotFoundError(this.where);
    return log.items;
  }
}

function decodeAll<T>(items: readonly StoredItem[], decode: LogDecoder<T>): LogRead<T> {
  const read: LogRead<T> = { items: [], corruptLines: 0, tornTail: false };
  items.forEach((stored, i) => {
    const item = decodeOne(stored, decode);
    if (item !== undefined) read.items.push(item);
    else if (stored.torn === true && i === items.length - 1) read.tornTail = true;
    else read.corruptLines += 1;
  });
  return read;
}

function decodeOne<T>(stored: StoredItem, decode: LogDecoder<T>): T | undefined {
  if (stored.torn === true) return undefined;
  try {
    return decode(JSON.parse(stored.text));
  } catch {
    return undefined;
  }
}

/** The shortest end of `items` that holds `count` decodable items. */
function tailHolding<T>(items: readonly StoredItem[], count: number, decode: LogDecoder<T>): StoredItem[] {
  let found = 0;
  for (let i = items.length - 1; i >= 0; i--) {
    if (decodeOne(items[i] as StoredItem, decode) !== undefined) found += 1;
    if (found === count) return items.slice(i);
  }
  return [...items];
}
