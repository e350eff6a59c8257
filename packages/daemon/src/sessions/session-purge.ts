// DELETE /session/:id?purge=true: the session deleted for good. A live session is closed first (as a plain
// DELETE closes it); then the agent's `session/delete` removes its transcript and every journal kept beside it
// (the daemon's answer and prompt journals are logs of the same session in the same storage).
import { agentLacksMethod, sessionNotFound } from "../errors/domain-errors.js";
import { errorFromChild } from "./child-errors.js";
import type { Sessions } from "./sessions.js";

/** `sessionId` is well formed (the route checked it). */
export async function purgeSession(
  sessions: Sessions,
  sessionId: string,
  clientId: string | undefined,
): Promise<void> {
  // An open in progress would reload the session while it is deleted: let it finish first.
  for (let inFlight = sessions.registry.openInFlight(sessionId); inFlight !== undefined; ) {
    await inFlight.then(noop, noop);
    inFlight = sessions.registry.openInFlight(sessionId);
  }
  const live = sessions.registry.get(sessionId);
  // Subscribers learn why it ends (`session_closed` reason `deleted`): it will not load again.
  if (live !== undefined) await live.close("deleted", clientId);
  else if ((await sessions.store.get(sessions.workspace, sessionId)) === undefined)
    throw sessionNotFound(sessionId);
  const child = await sessions.children.ensure();
  if (!child.agentCapabilities?.sessionCapabilities?.delete)
    throw agentLacksMethod("session/delete", "sessionCapabilities.delete");
  try {
    await child.deleteSession(sessionId);
  } catch (error) {
    throw errorFromChild(error, sessionId);
  }
  sessions.options.log(`qwen serve: session ${sessionId} deleted with its transcript and journals`);
}

function noop(): void {}
