// POST /session/:id/continue: asks the child whether an interrupted turn can continue; if so it runs as a
// tracked prompt. It waits for an open of the session in flight, so the child decides on the reopened history.
import type { ContinueResponse } from "@qwen-daemon/core/protocol";
import { CONTINUE_LAST_TURN_META_KEY, PROMPT_ID_META_KEY } from "@qwen-daemon/core/protocol";
import { sessionNotFound } from "../errors/domain-errors.js";
import { errorFromChild, isMethodNotFound } from "./child-errors.js";
import { isIdle } from "./session-state.js";
import type { Sessions } from "./sessions.js";

export async function continueLastTurn(
  sessions: Sessions,
  sessionId: string,
  clientId: string | undefined,
): Promise<ContinueResponse> {
  const session = sessions.require(sessionId);
  session.assertClient(clientId);
  const refuse = (interruption: string): ContinueResponse => ({
    accepted: false,
    interruption,
    lastEventId: session.bus.lastEventId,
    eventEpoch: session.bus.epoch,
  });
  if (!isIdle(session.activity)) return refuse("none");
  // A load or resume may be reloading the session in the child right now: ask once it has settled, so the
  // child decides on the reloaded history (and a child that cannot answer mid-reload is never asked then).
  for (let inFlight = sessions.registry.openInFlight(sessionId); inFlight !== undefined; ) {
    await inFlight.then(noop, noop);
    inFlight = sessions.registry.openInFlight(sessionId);
  }
  if (session.state !== "live") throw sessionNotFound(sessionId);
  if (!isIdle(session.activity)) return refuse("none");
  let decision: { accepted: boolean; interruption: string };
  try {
    decision = await session.child.continueLastTurn(sessionId);
  } catch (error) {
    if (isMethodNotFound(error)) return refuse("none");
    throw errorFromChild(error, sessionId);
  }
  const interruption = typeof decision.interruption === "string" ? decision.interruption : "none";
  if (decision.accepted !== true || session.state !== "live" || !isIdle(session.activity)) {
    return refuse(interruption);
  }
  const lastEventId = session.bus.lastEventId;
  const promptId = sessions.newId();
  session.queue.admit({
    promptId,
    kind: "continue",
    text: "",
    prompt: [],
    meta: { [CONTINUE_LAST_TURN_META_KEY]: true, [PROMPT_ID_META_KEY]: promptId },
    originatorClientId: clientId,
  });
  return { accepted: true, interruption, promptId, lastEventId, eventEpoch: session.bus.epoch };
}

function noop(): void {}
