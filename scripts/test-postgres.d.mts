// Types of test-postgres.mjs for the TypeScript tests that start a server themselves (e2e/harness/postgres.ts).
export interface TestPostgresServer {
  /** postgres://qwen_test:<password>@127.0.0.1:<port>/postgres */
  url: string;
  dir: string;
  port: number;
  /** Stops the server and removes its folder; safe to call more than once. */
  stop(): void;
}
export function findPostgresBin(): string | undefined;
export function ensurePostgresInstalled(log?: (line: string) => void): string;
export function startTestPostgres(options?: { log?: (line: string) => void }): Promise<TestPostgresServer>;
