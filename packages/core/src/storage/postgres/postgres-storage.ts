// The PostgreSQL backend of SessionStorage (docs/storage.md), for sessions that must outlive a host: every
// daemon and agent of a deployment opens the same database. A log is rows of `qwen_log_item` in `seq` order
// (the item's JSON text as written, so a read gives back exactly what was appended) and a head row in
// `qwen_log_head` (the last seq and the last write), which an append updates first: that row lock orders
// appends to one log from any number of processes, and each append is one statement, whole or not at all.
// A durable append commits with synchronous_commit on (it resolves once the commit is flushed); a plain one
// commits with it off, which the server may lose in a crash but never tears.
// With an owner (session-lease.ts), appends and replacements are fenced in the same statement: the session's
// lease row must still name this owner at the epoch the handle started with, and is share-locked until the
// commit, so a takeover (which updates that row) either waits for the append or makes it write nothing.
// `pg` is loaded on first use, so a process that never opens PostgreSQL never loads the driver.

import { logItemText } from "../log-item-text.js";
import type { OpenOutbox } from "../outbox-storage.js";
import { assertValidSessionId } from "../session-id.js";
import { SessionFencedError, type StorageOwner } from "../session-lease.js";
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
import { connectDb, type Db } from "./db.js";
import { PostgresLeases } from "./postgres-leases.js";
import { postgresOutboxStorage } from "./postgres-outbox.js";

export interface PostgresStorageOptions {
  /** postgres://user:password@host:port/database (a secret: shown only through redactStorageUrl). */
  url: string;
  /**
   * Who writes: appends are fenced by this owner's lease (a new session's first append claims it).
   * Without one, appends are not fenced (a single writer, or tests of the plain contract).
   */
  owner?: StorageOwner;
  /** How long a lease lasts unless renewed (default 15000). */
  leaseMs?: number;
  /** Called once a durable append or replacement has committed, before it resolves (the contract's probe). */
  onDurable?: () => void;
  /** Errors of idle connections (a server restart): reported here instead of crashing the process. */
  onError?: (error: Error) => void;
  /** Connections at most (default 10). */
  maxConnections?: number;
}

export interface PostgresSessionStorage extends SessionStorage {
  readonly leases: PostgresLeases | undefined;
  /** Opens the owner's outbox (with an owner only). */
  readonly outbox: OpenOutbox | undefined;
  /** Connects and migrates the schema (every operation waits for it too); rejects with a redacted error. */
  ready(): Promise<void>;
  /** Closes the connections; the storage is unusable afterwards. */
  close(): Promise<void>;
}

/** Rows a scan fetches at a time: a listing reads only the first few items of each transcript. */
const SCAN_PAGE = 64;

export function postgresSessionStorage(options: PostgresStorageOptions): PostgresSessionStorage {
  const db = connectDb(options.url, options);
  const leaseMs = options.leaseMs ?? 15_000;
  const owner = options.owner;
  const leases = owner === undefined ? undefined : new PostgresLeases(db, owner, leaseMs);
  return {
    leases,
    outbox:
      owner === undefined
        ? undefined
        : (decode) => postgresOutboxStorage(db, owner, leaseMs, decode, options.onDurable),
    log: <T>(
      key: SessionKey,
      kind: SessionLogKind,
      decode: LogDecoder<T>,
      open: LogOpenOptions = {},
    ): SessionLog<T> => {
      assertValidSessionId(key.sessionId);
      return new PostgresSessionLog(db, { ...key }, kind, decode, leases, options.onDurable, open);
    },
    listSessions: (cwd) => listSessions(db, cwd, options.owner?.id),
    ready: () => db.ready(),
    close: () => db.close(),
  };
}

// One statement: the fence (when owned), the head's next seq under its row lock, the item, and how this
// transaction commits (set_config is local to it, so it is the commit of this very statement).
const APPEND_SQL = (fenced: boolean) => `
WITH commit_mode AS (SELECT set_config('synchronous_commit', $5, true) AS mode),
fence AS (
  ${
    fenced
      ? `SELECT 1 FROM qwen_session_lease
         WHERE cwd = $1 AND session_id = $2 AND owner_id = $6 AND epoch = $7 FOR SHARE`
      : "SELECT 1"
  }
),
head AS (
  INSERT INTO qwen_log_head AS h (cwd, session_id, kind, last_seq)
  SELECT $1, $2, $3, 1 FROM fence
  ON CONFLICT (cwd, session_id, kind)
  DO UPDATE SET last_seq = h.last_seq + 1, updated_at = clock_timestamp()
  RETURNING last_seq
)
INSERT INTO qwen_log_item (cwd, session_id, kind, seq, item)
SELECT $1, $2, $3, head.last_seq, $4 FROM head CROSS JOIN commit_mode
RETURNING seq`;

class PostgresSessionLog<T> implements SessionLog<T> {
  readonly where: string;
  /** Appends and replacements of this handle, one at a time in call order. */
  readonly #writes = new WriteQueue();
  /** The epoch this handle writes at (owned storage): learned, or the lease claimed, at its first write. */
  #epoch: Promise<number> | undefined;

  constructor(
    private readonly db: Db,
    private readonly key: SessionKey,
    private readonly kind: SessionLogKind,
    private readonly decode: LogDecoder<T>,
    private readonly leases: PostgresLeases | undefined,
    private readonly onDurable: (() => void) | undefined,
    private readonly open: LogOpenOptions,
  ) {
    this.where = `postgres:${kind}/${key.sessionId} (${key.cwd})`;
  }

  append(item: T, options: LogAppendOptions = {}): Promise<void> {
    let text: string;
    try {
      text = logItemText(item);
    } catch (error) {
      return Promise.reject(error);
    }
    const durable = options.durable === true || this.open.everyAppendDurable === true;
    return this.#writes.run(async () => {
      const { cwd, sessionId } = this.key;
      const values: unknown[] = [cwd, sessionId, this.kind, text, durable ? "on" : "off"];
      if (this.leases !== undefined) values.push(this.leases.owner.id, await this.#ownEpoch());
      const { rows } = await this.db.query(APPEND_SQL(this.leases !== undefined), values);
      if (rows.length === 0) throw await this.#fenced();
      if (durable) this.onDurable?.();
    });
  }

  read(): Promise<LogRead<T>> {
    return this.#readRows(
      "SELECT item FROM qwen_log_item WHERE cwd = $1 AND session_id = $2 AND kind = $3 ORDER BY seq",
    );
  }

  async readTail(count: number): Promise<LogRead<T>> {
    // One row more than asked: a torn last item does not take the place of a whole one.
    const wanted = Math.max(0, Math.floor(count));
    const read = await this.#readRows(
      `SELECT item FROM (SELECT seq, item FROM qwen_log_item WHERE cwd = $1 AND session_id = $2 AND kind = $3
       ORDER BY seq DESC LIMIT $4) tail ORDER BY seq`,
      [wanted + 1],
      wanted,
    );
    return read;
  }

  async scan(visit: (item: T) => boolean | undefined): Promise<void> {
    await this.#mustExist();
    let after = 0;
    for (;;) {
      const { rows } = await this.db.query(
        `SELECT seq, item FROM qwen_log_item WHERE cwd = $1 AND session_id = $2 AND kind = $3 AND seq > $4
         ORDER BY seq LIMIT ${SCAN_PAGE}`,
        [this.key.cwd, this.key.sessionId, this.kind, after],
      );
      for (const row of rows) {
        after = Number(row.seq);
        const item = decodeText(row.item as string, this.decode);
        if (item !== undefined && visit(item) === false) return;
      }
      if (rows.length < SCAN_PAGE) return;
    }
  }

  async exists(): Promise<boolean> {
    const { rows } = await this.db.query(
      "SELECT 1 FROM qwen_log_head WHERE cwd = $1 AND session_id = $2 AND kind = $3",
      [this.key.cwd, this.key.sessionId, this.kind],
    );
    return rows.length > 0;
  }

  replace(items: readonly T[]): Promise<void> {
    let texts: string[];
    try {
      texts = items.map(logItemText);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#writes.run(async () => {
      const epoch = this.leases === undefined ? undefined : await this.#ownEpoch();
      const { cwd, sessionId } = this.key;
      const keyValues = [cwd, sessionId, this.kind];
      await this.db.transaction(async (client) => {
        if (this.leases !== undefined) {
          const fence = await client.query(
            `SELECT 1 FROM qwen_session_lease WHERE cwd = $1 AND session_id = $2 AND owner_id = $3 AND epoch = $4
             FOR SHARE`,
            [cwd, sessionId, this.leases.owner.id, epoch],
          );
          if (fence.rows.length === 0) throw await this.#fenced();
        }
        await client.query(
          "DELETE FROM qwen_log_item WHERE cwd = $1 AND session_id = $2 AND kind = $3",
          keyValues,
        );
        if (texts.length === 0) {
          await client.query(
            "DELETE FROM qwen_log_head WHERE cwd = $1 AND session_id = $2 AND kind = $3",
            keyValues,
          );
          return;
        }
        await client.query(
          `INSERT INTO qwen_log_item (cwd, session_id, kind, seq, item)
           SELECT $1, $2, $3, n, item FROM unnest($4::text[]) WITH ORDINALITY AS t(item, n)`,
          [...keyValues, texts],
        );
        await client.query(
          `INSERT INTO qwen_log_head (cwd, session_id, kind, last_seq) VALUES ($1, $2, $3, $4)
           ON CONFLICT (cwd, session_id, kind) DO UPDATE SET last_seq = $4, updated_at = clock_timestamp()`,
          [...keyValues, texts.length],
        );
      });
      this.onDurable?.();
    });
  }

  async close(): Promise<void> {
    await this.#writes.drained();
  }

  /** The epoch of this owner's lease on the session; a new session's lease is claimed here. */
  #ownEpoch(): Promise<number> {
    const leases = this.leases as PostgresLeases;
    this.#epoch ??= leases.claimOrRead(this.key).then((lease) => {
      if (lease.ownerId !== leases.owner.id) throw new SessionFencedError(this.key, ownerOf(lease));
      return lease.epoch;
    });
    // A refusal stays: this handle never writes again (a new handle looks again).
    return this.#epoch;
  }

  async #fenced(): Promise<SessionFencedError> {
    const lease = await (this.leases as PostgresLeases).read(this.key);
    return new SessionFencedError(this.key, lease === undefined ? undefined : ownerOf(lease));
  }

  async #mustExist(): Promise<void> {
    if (!(await this.exists())) throw new SessionLogNotFoundError(this.where);
  }

  /** Decodes rows in order; `tail` keeps only the last that many rows once a torn last one is set aside. */
  async #readRows(sql: string, extra: unknown[] = [], tail?: number): Promise<LogRead<T>> {
    const { rows } = await this.db.query(sql, [this.key.cwd, this.key.sessionId, this.kind, ...extra]);
    if (rows.length === 0) await this.#mustExist();
    const read: LogRead<T> = { items: [], corruptLines: 0, tornTail: false };
    let texts = rows.map((row) => row.item as string);
    // A last item that is not JSON is what a write cut short leaves in a copied or restored log; a
    // transaction itself never tears one.
    if (texts.length > 0 && !isJson(texts[texts.length - 1] as string)) {
      read.tornTail = true;
      texts = texts.slice(0, -1);
    }
    if (tail !== undefined) texts = texts.slice(Math.max(0, texts.length - tail));
    for (const text of texts) {
      const item = decodeText(text, this.decode);
      if (item !== undefined) read.items.push(item);
      else read.corruptLines++;
    }
    return read;
  }
}

const ownerOf = (lease: { ownerId: string; ownerUrl: string }) => ({
  id: lease.ownerId,
  url: lease.ownerUrl,
});

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function decodeText<T>(text: string, decode: LogDecoder<T>): T | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return decode(value);
}

async function listSessions(db: Db, cwd: string, me: string | undefined): Promise<StoredSession[]> {
  const { rows } = await db.query(
    `SELECT h.session_id, h.updated_at,
            CASE WHEN l.expires_at > clock_timestamp() AND l.owner_id IS DISTINCT FROM $2 THEN l.owner_url END AS owner
     FROM qwen_log_head h
     LEFT JOIN qwen_session_lease l ON l.cwd = h.cwd AND l.session_id = h.session_id
     WHERE h.cwd = $1 AND h.kind = 'transcript'`,
    [cwd, me ?? null],
  );
  return rows.map((row) => ({
    sessionId: row.session_id as string,
    updatedAt: (row.updated_at as Date).toISOString(),
    ...(typeof row.owner === "string" ? { owner: row.owner } : {}),
  }));
}
