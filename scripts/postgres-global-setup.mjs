// vitest globalSetup for suites that use PostgreSQL: one private server (scripts/test-postgres.mjs) for the
// run, its URL given to the tests as `inject("postgresUrl")`, stopped at teardown whatever the tests did.
import { startTestPostgres } from "./test-postgres.mjs";

export default async function setup(project) {
  const server = await startTestPostgres();
  // A run killed before teardown still stops its server: pg_ctl stop at exit (teardown makes it a no-op).
  const atExit = () => server.stop();
  process.once("exit", atExit);
  project.provide("postgresUrl", server.url);
  return () => {
    process.off("exit", atExit);
    server.stop();
  };
}
