// The PostgreSQL schema, created and migrated by whoever opens the storage first (daemon or agent). Versioned:
// `qwen_schema` holds the version reached; each migration runs once, in order, in one transaction. Two
// processes starting at once take turns on a transaction-level advisory lock, so the second finds the work
// done. A database migrated by a newer release (a version above ours) is refused rather than written wrongly.
import type { PoolClient } from "pg";

/** The advisory lock key of migrations: an arbitrary constant of this project ("qwenstor" in ASCII, cut). */
const MIGRATION_LOCK = 0x7177656e73746fn;

export const MIGRATIONS: readonly string[] = [
  // 1: logs (one row per item, in seq order), their heads (the next seq, the last write), leases.
  `
  CREATE TABLE qwen_log_head (
    cwd text NOT NULL,
    session_id text NOT NULL,
    kind text NOT NULL,
    last_seq bigint NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (cwd, session_id, kind)
  );
  CREATE TABLE qwen_log_item (
    cwd text NOT NULL,
    session_id text NOT NULL,
    kind text NOT NULL,
    seq bigint NOT NULL,
    item text NOT NULL,
    PRIMARY KEY (cwd, session_id, kind, seq)
  );
  CREATE TABLE qwen_session_lease (
    cwd text NOT NULL,
    session_id text NOT NULL,
    owner_id text NOT NULL,
    owner_url text NOT NULL,
    epoch bigint NOT NULL,
    expires_at timestamptz NOT NULL,
    PRIMARY KEY (cwd, session_id)
  );
  CREATE INDEX qwen_session_lease_owner ON qwen_session_lease (owner_id);
  `,
  // 2: a daemon's outbox (notifications not delivered yet): each item held by one owner until its claim runs
  // out, then claimed by the next daemon that opens the outbox; and the ids of what was told (any owner).
  `
  CREATE TABLE qwen_outbox_item (
    key text PRIMARY KEY,
    seq bigserial NOT NULL,
    item text NOT NULL,
    owner_id text NOT NULL,
    expires_at timestamptz NOT NULL
  );
  CREATE INDEX qwen_outbox_item_owner ON qwen_outbox_item (owner_id);
  CREATE TABLE qwen_outbox_note (
    id text PRIMARY KEY,
    noted_at timestamptz NOT NULL DEFAULT clock_timestamp()
  );
  `,
];

export class SchemaTooNewError extends Error {
  override readonly name = "SchemaTooNewError";
}

/** Brings the schema to the latest version; safe to run from several processes at once. */
export async function migrate(client: PoolClient): Promise<void> {
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK.toString()]);
    await client.query("CREATE TABLE IF NOT EXISTS qwen_schema (version integer NOT NULL)");
    const { rows } = await client.query<{ version: number }>("SELECT version FROM qwen_schema");
    const version = rows[0]?.version ?? 0;
    if (version > MIGRATIONS.length)
      throw new SchemaTooNewError(
        `The database's session schema is version ${version}, newer than this release knows (${MIGRATIONS.length}): upgrade qwen`,
      );
    for (let v = version; v < MIGRATIONS.length; v++) await client.query(MIGRATIONS[v] as string);
    if (rows.length === 0) await client.query("INSERT INTO qwen_schema VALUES ($1)", [MIGRATIONS.length]);
    else await client.query("UPDATE qwen_schema SET version = $1", [MIGRATIONS.length]);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}
