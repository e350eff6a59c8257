// The daemon's journals keep one open handle per live session's log: opened on its first write, kept while
// the session is live (Sessions holds it when the session opens and releases it when it ends), closed with
// the daemon. For JSONL a kept handle is an open file, so a durable append is one write and one fdatasync; a
// handle per append cost an open (an O_EXCL try first), a stat and a read of the last byte, the write, the
// fdatasync and a close, on the path of every vote's 200 (BENCHMARKS.md "A vote beside the reference").
// A write for a session that is not held (a load judging its prompts, a late write after the session ended)
// opens a handle for that write only, so nothing stays open for a session that is not live.
// Writes to one log run one at a time in call order (one writer per file, TranscriptWriter's rule), and a
// release closes the handle after the writes queued before it.
import type {
  LogDecoder,
  LogOpenOptions,
  SessionKey,
  SessionLog,
  SessionLogKind,
  SessionStorage,
} from "@qwen-daemon/core";
import { KeyedSerializer } from "./keyed-serializer.js";

export class KeptSessionLogs<T> {
  /** Sessions whose handle is kept once opened (live here). */
  readonly #held = new Set<string>();
  readonly #open = new Map<string, SessionLog<T>>();
  readonly #perLog = new KeyedSerializer();

  constructor(
    private readonly storage: SessionStorage,
    private readonly kind: SessionLogKind,
    private readonly decode: LogDecoder<T>,
    private readonly open: LogOpenOptions = {},
  ) {}

  /** A fresh handle that is not kept (reads; it holds nothing until it writes). Throws on an invalid id. */
  handle(key: SessionKey): SessionLog<T> {
    return this.storage.log(key, this.kind, this.decode, this.open);
  }

  /** The session is live here: its handle is kept from its next write until `release`. */
  hold(key: SessionKey): void {
    this.#held.add(idOf(key));
  }

  /**
   * Runs `task` with the session's handle, after every task queued earlier on that log. A task that fails
   * drops a kept handle (closed): the next write opens the log afresh instead of trusting a handle whose file
   * or lease may be what failed.
   */
  run<R>(key: SessionKey, task: (log: SessionLog<T>) => Promise<R>): Promise<R> {
    const id = idOf(key);
    return this.#perLog.run(id, async () => {
      let log = this.#open.get(id);
      const kept = log !== undefined || this.#held.has(id);
      log ??= this.handle(key); // throws on an invalid id, before anything is kept
      if (kept) this.#open.set(id, log);
      try {
        return await task(log);
      } catch (error) {
        if (kept) {
          this.#open.delete(id);
          await log.close().catch(() => undefined); // the task's own failure is the one to report
        }
        throw error;
      } finally {
        if (!kept) await log.close();
      }
    });
  }

  /** Runs `task` in the same order as the writes, with the kept handle if there is one (reading keeps none). */
  read<R>(key: SessionKey, task: (log: SessionLog<T>) => Promise<R>): Promise<R> {
    const id = idOf(key);
    return this.#perLog.run(id, () => task(this.#open.get(id) ?? this.handle(key)));
  }

  /** The session ended here: its handle is closed once the writes queued before have finished. */
  release(key: SessionKey): Promise<void> {
    const id = idOf(key);
    this.#held.delete(id);
    return this.#closeKept(id);
  }

  /** Closes every kept handle (the daemon stops). */
  async closeAll(): Promise<void> {
    this.#held.clear();
    await Promise.all([...this.#open.keys()].map((id) => this.#closeKept(id)));
  }

  /** How many handles are open and kept (tests: one per live session that wrote, none once released). */
  get keptCount(): number {
    return this.#open.size;
  }

  #closeKept(id: string): Promise<void> {
    return this.#perLog.run(id, async () => {
      const log = this.#open.get(id);
      this.#open.delete(id);
      await log?.close();
    });
  }
}

function idOf(key: SessionKey): string {
  return `${key.cwd}\0${key.sessionId}`;
}
