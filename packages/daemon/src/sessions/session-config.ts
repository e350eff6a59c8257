// POST /session/:id/config: one of the session's config options (`mode`, `model`) set through the agent's
// `session/set_config_option`; the answer is every option as it now stands, also kept on the live session
// so later create/load/resume answers report it.
import type { SetConfigBody, SetConfigResponse } from "@qwen-daemon/core/protocol";
import { errorFromChild } from "./child-errors.js";
import type { LiveSession } from "./live-session.js";

export async function setSessionConfig(
  session: LiveSession,
  body: SetConfigBody,
): Promise<SetConfigResponse> {
  let configOptions: SetConfigResponse["configOptions"];
  try {
    ({ configOptions } = (await session.child.setConfigOption(
      session.sessionId,
      body.configId,
      body.value,
    )) as SetConfigResponse);
  } catch (error) {
    throw errorFromChild(error, session.sessionId);
  }
  session.configOptions = configOptions;
  return { sessionId: session.sessionId, configOptions };
}
