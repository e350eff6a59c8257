// The connection pool the PostgreSQL logs and leases share: created on first use (`pg` is loaded then, so a
// process that never opens PostgreSQL never loads the driver), the schema migrated before anything else
// runs, every error redacted (a driver's message may quote the URL).
import type { Pool, PoolClient } from "pg";
import { SessionFencedError } from "../session-lease.js";
import { redactStorageSecrets } from "../storage-url.js";
import { migrate } from "./schema.js";

/** What the logs and leases need of the pool. */
export interface Db {
  query(text: string, values?: readonly unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  /** Runs `body` in one transaction (committed with synchronous_commit on); a SessionFencedError passes as is. */
  transaction<R>(body: (client: PoolClient) => Promise<R>): Promise<R>;
  /** Connects and migrates (every query waits for it too). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export interface DbOptions {
  maxConnections?: number;
  onError?: (error: Error) => void;
}

export function connectDb(url: string, options: DbOptions = {}): Db {
  const target = { kind: "postgres", url } as const;
  const redacted = (error: unknown): Error => {
    const message = redactStorageSecrets(error instanceof Error ? error.message : String(error), target);
    const out = new Error(`PostgreSQL session storage: ${message}`);
    if (error instanceof Error && "code" in error) Object.assign(out, { code: error.code });
    return out;
  };
  let pool: Promise<Pool> | undefined;
  let closed: Promise<void> | undefined;
  const connect = (): Promise<Pool> => {
    if (closed !== undefined) return Promise.reject(new Error("PostgreSQL session storage: closed"));
    pool ??= (async () => {
      const { default: pg } = await import("pg");
      const created = new pg.Pool({
        connectionString: url,
        max: options.maxConnections ?? 10,
        // Every commit waits for its WAL flush unless a statement says otherwise (plain appends do).
        options: "-c synchronous_commit=on",
      });
      created.on("error", (error) => options.onError?.(redacted(error)));
      try {
        const client = await created.connect();
        try {
          await migrate(client);
        } finally {
          client.release();
        }
      } catch (error) {
        await created.end();
        throw error;
      }
      return created;
    })().catch((error: unknown) => {
      pool = undefined; // the next operation tries again (the server may be starting)
      throw redacted(error);
    });
    return pool;
  };
  return {
    async query(text, values) {
      const p = await connect();
      try {
        return await p.query(text, values as unknown[]);
      } catch (error) {
        throw redacted(error);
      }
    },
    async transaction(body) {
      const p = await connect();
      const client = await p.connect().catch((error: unknown) => {
        throw redacted(error);
      });
      try {
        await client.query("BEGIN");
        const result = await body(client);
        await client.query("COMMIT");
        return result;
      } catch (error) {
        // The transaction's own failure is what the caller needs; a failed ROLLBACK only adds noise.
        await client.query("ROLLBACK").catch(() => undefined);
        throw error instanceof SessionFencedError ? error : redacted(error);
      } finally {
        client.release();
      }
    },
    ready: async () => {
      await connect();
    },
    close() {
      closed ??= (async () => {
        const p = await pool?.catch(() => undefined);
        await p?.end();
      })();
      return closed;
    },
  };
}
