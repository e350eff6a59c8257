// What the person does to the open session as a whole, through the daemon: name it, set one of its options
// (the model), delete it for good. Each reports a failure through the host (a banner, or the outage) and
// says true/false; the controller hands each the little it needs (AdminHost).
import type { SessionConfigOption } from "@qwen-daemon/core/protocol";
import { type Api, ApiError } from "../net/api.js";
import { describe } from "../net/api-errors.js";
import { callRoute } from "../net/routes.js";

export type AdminHost = {
  api: Api;
  sessionId: string | undefined;
  clientId: string | undefined;
  canAct: boolean;
  /** A session is open and the daemon is there to delete it (also a stopped or closed session). */
  canDelete: boolean;
  /** The request failed: `text` says what could not be done. */
  failed: (error: unknown, text: string) => void;
};

/** The name the daemon now has for the session, or undefined when it was not renamed. */
export async function renameSession(host: AdminHost, name: string): Promise<string | undefined> {
  const { sessionId } = host;
  if (!sessionId || !host.canAct) return undefined;
  try {
    const res = await callRoute(host.api, "renameSession", {
      params: { id: sessionId },
      body: { name },
      clientId: host.clientId,
    });
    return res.displayName;
  } catch (error) {
    host.failed(error, `Could not rename the session: ${describe(error)}`);
    return undefined;
  }
}

/** Every option as it now stands, or undefined when the daemon (or its agent) refused. */
export async function setSessionOption(
  host: AdminHost,
  configId: string,
  value: string,
): Promise<SessionConfigOption[] | undefined> {
  const { sessionId } = host;
  if (!sessionId || !host.canAct) return undefined;
  try {
    const res = await callRoute(host.api, "setConfig", {
      params: { id: sessionId },
      body: { configId, value },
      clientId: host.clientId,
    });
    return res.configOptions;
  } catch (error) {
    host.failed(error, `Could not change the ${configId}: ${describe(error)}`);
    return undefined;
  }
}

/** `DELETE /session/:id?purge=true`; true when the session is gone (also when it was gone already). */
export async function deleteSession(host: AdminHost): Promise<boolean> {
  const { sessionId } = host;
  if (!sessionId || !host.canDelete) return false;
  try {
    await callRoute(host.api, "closeSession", {
      params: { id: sessionId },
      query: { purge: "true" },
      clientId: host.clientId,
    });
    return true;
  } catch (error) {
    // Already gone (deleted from another page): what the person wanted is done.
    if (error instanceof ApiError && error.status === 404) return true;
    host.failed(error, `Could not delete the session: ${describe(error)}`);
    return false;
  }
}
