// A fresh database on the suite's private server (scripts/postgres-global-setup.mjs) per test, dropped after.
import { randomBytes } from "node:crypto";
import pg from "pg";

export interface TestDatabase {
  url: string;
  /** Runs SQL as the server's superuser in this database (to damage a log as a bad copy would). */
  query(text: string, values?: unknown[]): Promise<void>;
  /** Reads rows as the server's superuser (a test looks at what the daemons stored). */
  select(text: string, values?: unknown[]): Promise<Record<string, unknown>[]>;
  drop(): Promise<void>;
}

export async function createTestDatabase(serverUrl: string): Promise<TestDatabase> {
  const name = `qwen_t_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const select = async (text: string, values?: unknown[]): Promise<Record<string, unknown>[]> => {
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      return (await client.query(text, values)).rows;
    } finally {
      await client.end();
    }
  };
  return {
    url: url.toString(),
    async query(text, values) {
      await select(text, values);
    },
    select,
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
