// The JSONL backend of SessionStorage (docs/protocol.md "On disk"): one append-only file per log,
// `$QWEN_HOME/projects/<project>/chats/<sessionId>.jsonl` (+ .ledger, .answers, .prompts), mode 0600 (they
// hold private conversations). A line is one item; appends go through TranscriptWriter (one write call per
// line, in call order, fdatasync for durable ones); reads skip a torn last line and count corrupt ones.
// Every write step (folders, new files, fsyncs, the rename of a replacement) goes through DurableFs, which
// keeps the rules that make a durable write survive a power loss (docs/restore.md "Power loss").
// One writer per file at a time: a handle's appends are ordered, two handles on one file are not (the
// daemon serializes its journals per file, and each transcript and ledger has one owning session).
import type { Dirent } from "node:fs";
import { access, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { DurableFs } from "../durable-fs.js";
import type {
  LogAppendOptions,
  LogDecoder,
  LogOpenOptions,
  LogRead,
  SessionLog,
  SessionLogKind,
  SessionStorage,
  StoredSession,
} from "../session-storage.js";
import { SessionLogNotFoundError } from "../session-storage.js";
import { forEachLine, JsonlAccumulator, readJsonlFile, readJsonlTail } from "./jsonl-file.js";
import {
  answersPath,
  chatsDir,
  ledgerPath,
  namesPath,
  promptsPath,
  sessionIdOfFileName,
  transcriptPath,
} from "./paths.js";
import { TranscriptWriter } from "./writer.js";

export interface JsonlStorageOptions {
  /** Called after every fsync a durable write made, before the write resolves (the contract suite's probe). */
  onSync?: (path: string) => void;
  /** The file-system steps (the process's one DurableFs, which may record them); a plain one by default. */
  fs?: DurableFs;
}

const PATH_OF: Record<SessionLogKind, (qwenHome: string, cwd: string, sessionId: string) => string> = {
  transcript: transcriptPath,
  ledger: ledgerPath,
  answers: answersPath,
  prompts: promptsPath,
  names: namesPath,
};

/** Listing reads many heads: a small read buffer keeps it cheap (a whole read uses 1 MiB chunks). */
const SCAN_CHUNK_BYTES = 64 * 1024;

export function jsonlSessionStorage(qwenHome: string, options: JsonlStorageOptions = {}): SessionStorage {
  const files: LogFiles = { root: qwenHome, fs: options.fs ?? new DurableFs(), onSync: options.onSync };
  return {
    log: (key, kind, decode, open = {}) =>
      new JsonlSessionLog(PATH_OF[kind](qwenHome, key.cwd, key.sessionId), decode, files, open),
    listSessions: (cwd) => listTranscriptFiles(qwenHome, cwd),
  };
}

/** What every log of one storage shares: its root, its DurableFs and the fsync probe. */
interface LogFiles {
  root: string;
  fs: DurableFs;
  onSync: ((path: string) => void) | undefined;
}

class JsonlSessionLog<T> implements SessionLog<T> {
  #writer: TranscriptWriter | undefined;

  constructor(
    readonly where: string,
    private readonly decode: LogDecoder<T>,
    private readonly files: LogFiles,
    private readonly open: LogOpenOptions,
  ) {}

  append(item: T, options: LogAppendOptions = {}): Promise<void> {
    this.#writer ??= this.#newWriter();
    return this.#writer.append(item, options);
  }

  read(): Promise<LogRead<T>> {
    return notFoundAsTyped(this.where, () => readJsonlFile(this.where, this.decode));
  }

  readTail(count: number): Promise<LogRead<T>> {
    return notFoundAsTyped(this.where, () => readJsonlTail(this.where, count, this.decode));
  }

  scan(visit: (item: T) => boolean | undefined): Promise<void> {
    const acc = new JsonlAccumulator(this.decode);
    return notFoundAsTyped(this.where, () =>
      forEachLine(
        this.where,
        (line, terminated) => {
          const item = acc.add(line, terminated);
          return item === undefined ? undefined : visit(item);
        },
        SCAN_CHUNK_BYTES,
      ),
    );
  }

  async exists(): Promise<boolean> {
    try {
      await access(this.where);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw error;
    }
  }

  replace(items: readonly T[]): Promise<void> {
    let text: string;
    try {
      text = items.map(toLine).join("");
    } catch (error) {
      return Promise.reject(error);
    }
    // The open handle points at the file being replaced: it is closed once its appends are written, and
    // appends made meanwhile go to a fresh writer that opens the new file once the replacement is done.
    const previous = this.#writer;
    const done = (async () => {
      await previous?.close();
      if (text === "") await this.files.fs.removeFile(this.where);
      else {
        await this.files.fs.replaceFile(this.where, text, { root: this.files.root });
        this.files.onSync?.(this.where);
      }
    })();
    this.#writer = this.#newWriter(done);
    return done;
  }

  close(): Promise<void> {
    return this.#writer?.close() ?? Promise.resolve();
  }

  #newWriter(after?: Promise<void>): TranscriptWriter {
    return new TranscriptWriter(this.where, {
      fileMode: 0o600,
      fs: this.files.fs,
      root: this.files.root,
      everyAppendDurable: this.open.everyAppendDurable === true,
      ...(after === undefined ? {} : { after }),
      ...(this.files.onSync === undefined ? {} : { onSync: this.files.onSync }),
    });
  }
}

function toLine(item: unknown): string {
  const line = `${JSON.stringify(item)}\n`;
  if (line === "undefined\n") throw new TypeError("A log item must be JSON");
  return line;
}

async function listTranscriptFiles(qwenHome: string, cwd: string): Promise<StoredSession[]> {
  const dir = chatsDir(qwenHome, cwd);
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const sessions: StoredSession[] = [];
  for (const entry of entries) {
    const sessionId = sessionIdOfFileName(entry.name);
    if (sessionId === undefined || !entry.isFile()) continue;
    try {
      const { mtime } = await stat(join(dir, entry.name));
      sessions.push({ sessionId, updatedAt: mtime.toISOString() });
    } catch (error) {
      // Deleted between readdir and now: it is simply no longer a session.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  return sessions;
}

async function notFoundAsTyped<R>(where: string, read: () => Promise<R>): Promise<R> {
  try {
    return await read();
  } catch (error) {
    // A directory (or a path through a file) where the log should be is no log either: the caller answers
    // "no such session" instead of failing on an I/O error.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "EISDIR" || code === "ENOTDIR")
      throw new SessionLogNotFoundError(where, { cause: error });
    throw error;
  }
}
