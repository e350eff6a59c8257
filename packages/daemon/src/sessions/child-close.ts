// How the child is told that the daemon closed one of its sessions: with session/close alone, because a close
// is not a user's cancel. Sent as session/cancel first, the child would record a waiting question as
// cancelled and it could never be asked again; closed, it stays on disk, unanswered, for a later load to
// re-ask. An agent without session/close gets a session/cancel if a turn was running, so it stops at least.
// Never throws: the daemon has forgotten the session either way (failures are logged).
import type { ChildConnection } from "../bridge/child-connection.js";
import { isMethodNotFound } from "./child-errors.js";

export async function tellChildClosed(
  child: ChildConnection,
  sessionId: string,
  turnWasRunning: boolean,
  log: (line: string) => void,
): Promise<void> {
  if (!child.alive) return;
  try {
    await child.closeSession(sessionId);
  } catch (error) {
    if (!isMethodNotFound(error)) {
      log(`qwen serve: session/close for ${sessionId} failed: ${String(error)}`);
    } else if (turnWasRunning) {
      await child.cancel(sessionId).catch((cancelError: unknown) => {
        log(`qwen serve: session/cancel for closing ${sessionId} failed: ${String(cancelError)}`);
      });
    }
  }
}
