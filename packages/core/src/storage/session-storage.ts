// The storage interface: where a session's append-only logs live. Core (the agent session, its transcript
// and prompt ledger), the ACP child and the daemon (its answer and prompt journals, and the transcripts and
// ledgers it reads) reach storage only through this, so a new backend is one module implementing
// `SessionStorage` (checked by `describeSessionStorageContract` from `@qwen-daemon/core/testing`) plus its
// choice in open-storage.ts. Today's one backend is JSONL files under QWEN_HOME (jsonl/jsonl-storage.ts).
//
// What every backend guarantees (the contract suite checks each one):
// - appends to one log land one at a time, in call order, never interleaved, each whole or not at all;
// - a `durable` append resolves only once the item survives a power loss (fsync, a committed transaction);
//   the callers rely on it: a question's functionCall is durable before the question is shown, an answer
//   before the vote's 200, a prompt before its 202;
// - a read never fails on content: an item cut short by a crash at the very end is skipped and reported as
//   `tornTail`, any other damaged item is skipped and counted in `corruptLines`;
// - a log nothing was ever appended to does not exist: reads reject with SessionLogNotFoundError.

/**
 * Which of a session's logs: its transcript, prompt ledger (child), answer journal, prompt journal and the names
 * a person gave it (daemon).
 */
export type SessionLogKind = "transcript" | "ledger" | "answers" | "prompts" | "names";

/** Names one session; the storage itself knows its root (QWEN_HOME, a database). */
export interface SessionKey {
  /** The project working directory (absolute): sessions are kept per project. */
  cwd: string;
  sessionId: string;
}

/** One session's logs: the storage they are in and the session. */
export interface SessionLocation extends SessionKey {
  storage: SessionStorage;
}

/** Maps a stored value to an item, or `undefined` when it does not have the expected shape (corrupt). */
export type LogDecoder<T> = (value: unknown) => T | undefined;

export interface LogRead<T> {
  items: T[];
  /** Stored items that were damaged or did not decode: skipped, counted. */
  corruptLines: number;
  /** The last item was cut short by a crash mid-write and was skipped (expected after a crash). */
  tornTail: boolean;
}

export interface LogAppendOptions {
  /** Resolve only once the item survives a power loss. */
  durable?: boolean;
}

/** How a log handle is opened. */
export interface LogOpenOptions {
  /**
   * Every append through this handle is durable, whatever its own options say (a log whose every item is
   * durable: a backend may make each one durable in a single step).
   */
  everyAppendDurable?: boolean;
}

/** One session's log of one kind. Creating the handle stores nothing: the log appears with its first append. */
export interface SessionLog<T> {
  /** Where the log is, for messages (a file path for JSONL). */
  readonly where: string;
  /**
   * Appends one item (taken as it is now: later changes to the object are not stored). Rejects when the item
   * is not storable or cannot be written; a failed append never damages the ones after it.
   */
  append(item: T, options?: LogAppendOptions): Promise<void>;
  /** Every item in order. */
  read(): Promise<LogRead<T>>;
  /** The last `count` items in order, without reading the rest; the counts cover only what was looked at. */
  readTail(count: number): Promise<LogRead<T>>;
  /** Visits items from the first on until `visit` returns false (a listing reads only a head). */
  scan(visit: (item: T) => boolean | undefined): Promise<void>;
  exists(): Promise<boolean>;
  /**
   * Replaces every item atomically (a crash leaves the old items or the new ones), durably. None removes the
   * log, durably too (a session deleted stays deleted after a power cut); removing an absent log is a no-op.
   */
  replace(items: readonly T[]): Promise<void>;
  /** Waits for pending appends and releases what the handle holds. Safe to call more than once. */
  close(): Promise<void>;
}

/** A session whose transcript is stored, and when it was last written. */
export interface StoredSession {
  sessionId: string;
  /** ISO time of the last write to its transcript. */
  updatedAt: string;
  /** A store shared by hosts: the URL of the other daemon whose live lease holds the session. */
  owner?: string;
}

export interface SessionStorage {
  /**
   * The log of `kind` for one session. Throws InvalidSessionIdError for an id that breaks the wire rule
   * (protocol/ids.ts), before anything is touched.
   */
  log<T>(
    key: SessionKey,
    kind: SessionLogKind,
    decode: LogDecoder<T>,
    options?: LogOpenOptions,
  ): SessionLog<T>;
  /** Sessions of project `cwd` that have a transcript, in no particular order; none for an unknown project. */
  listSessions(cwd: string): Promise<StoredSession[]>;
}

/** The log has never been written (or was removed). */
export class SessionLogNotFoundError extends Error {
  override readonly name: string = "SessionLogNotFoundError";
  constructor(
    readonly where: string,
    options?: ErrorOptions,
  ) {
    super(`Not found: ${where}`, options);
  }
}
