// Graceful shutdown: stop accepting connections, end every session (pending permissions resolve as
// session_closed, SSE streams end), stop the children (SIGTERM, then SIGKILL after a grace), and drop
// connections that are still open after the grace; once no request runs any more, close the journals' writers.
import type { Server } from "node:http";
import type { Sessions } from "../sessions/sessions.js";
import type { IdleReaper } from "./idle-reaper.js";

export type ShutdownParts = {
  server: Server;
  sessions: Sessions;
  reaper: IdleReaper;
  /** How long children and open connections get before being killed / dropped. */
  graceMs: number;
};

export async function gracefulShutdown(parts: ShutdownParts): Promise<void> {
  const { server, sessions, reaper, graceMs } = parts;
  reaper.stop();
  const closed = new Promise<void>((resolve) => {
    server.close(() => resolve());
  });
  sessions.closeAll();
  // Let the cancelled permission answers reach the child's pipe before it is signalled.
  await new Promise((resolve) => setImmediate(resolve));
  await sessions.children.shutdown(graceMs);
  server.closeIdleConnections();
  const drop = setTimeout(() => server.closeAllConnections(), graceMs);
  drop.unref();
  await closed;
  clearTimeout(drop);
  await sessions.closeJournals();
}
