// PostgreSQL for the e2e files that run daemons on a shared store (docs/storage.md): the same private server
// the core suite starts (scripts/test-postgres.mjs: Debian's postgresql, installed when missing, on a free
// loopback port, stopped whatever happens), one per file, and a fresh database per test.
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import {
  createTestDatabase,
  type TestDatabase,
} from "../../packages/core/src/storage/postgres/testing/test-database.js";
import { startTestPostgres, type TestPostgresServer } from "../../scripts/test-postgres.mjs";

export interface PostgresWorld {
  /** The running test's database (inside a test only). */
  readonly database: TestDatabase;
}

/** Registers the hooks at the top level of a test file. */
export function usePostgres(): PostgresWorld {
  let server: TestPostgresServer | undefined;
  let database: TestDatabase | undefined;
  const atExit = () => server?.stop();
  beforeAll(async () => {
    server = await startTestPostgres();
    process.once("exit", atExit); // a run killed before afterAll still stops its server
  }, 120_000);
  afterAll(() => {
    process.off("exit", atExit);
    server?.stop();
  });
  beforeEach(async () => {
    if (server === undefined) throw new Error("usePostgres: the server did not start");
    database = await createTestDatabase(server.url);
  });
  afterEach(async () => {
    const finished = database;
    database = undefined;
    await finished?.drop();
  });
  return {
    get database() {
      if (database === undefined) throw new Error("usePostgres: no database outside a test");
      return database;
    },
  };
}
