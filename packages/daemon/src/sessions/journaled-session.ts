// A session the agent never saved, that the daemon knows from its prompt journal: created, given a prompt that
// was acknowledged with 202, and lost to a crash before the agent wrote anything (an agent that writes nothing
// until a session's first turn). Loading it would be a 404 and the acknowledged prompt silently gone; instead
// the daemon asks the agent for a fresh session under the same id, so the load succeeds with an empty history
// and reports the prompt as never started.

import { REQUESTED_SESSION_ID_META_KEY } from "@qwen-daemon/core/protocol";
import type { ChildConnection } from "../bridge/child-connection.js";
import { errorFromChild } from "./child-errors.js";
import type { SessionsOptions } from "./sessions-options.js";

/**
 * True when the prompt journal holds a prompt of `sessionId` and the agent created the session again under
 * that id; false when the journal does not know the session (the caller's 404 stands). Throws the agent's
 * refusal as a DaemonError.
 */
export async function recreateJournaledSession(
  options: Pick<SessionsOptions, "promptJournal" | "log">,
  child: ChildConnection,
  cwd: string,
  sessionId: string,
): Promise<boolean> {
  let known: boolean;
  try {
    known = (await options.promptJournal.read(cwd, sessionId)).entries.some((e) => e.type === "accepted");
  } catch (error) {
    options.log(`qwen serve: prompt journal of ${sessionId} could not be read: ${String(error)}`);
    return false;
  }
  if (!known) return false;
  let created: { sessionId: string };
  try {
    created = await child.newSession(cwd, { [REQUESTED_SESSION_ID_META_KEY]: sessionId });
  } catch (error) {
    throw errorFromChild(error, sessionId);
  }
  if (created.sessionId !== sessionId) {
    // The agent made another session instead; it is of no use here, and closing it is the agent's business.
    options.log(`qwen serve: agent would not recreate ${sessionId} (it made ${created.sessionId})`);
    await child.closeSession(created.sessionId).catch((error: unknown) => {
      options.log(`qwen serve: closing ${created.sessionId} failed: ${String(error)}`);
    });
    return false;
  }
  options.log(
    `qwen serve: ${sessionId} was never saved by the agent; recreated it for its journaled prompts`,
  );
  return true;
}
