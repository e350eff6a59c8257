// Session lifecycle: create/attach, load, resume, heartbeat, detach, delete. Bodies are checked against the
// contract here (in the order the reference daemon reports them: session id, workspace, then the rest).
import { CreateSessionBody, HttpRoutes } from "@qwen-daemon/core/protocol";
import { type Context, Hono } from "hono";
import { invalidSessionId } from "../errors/domain-errors.js";
import { invalidSessionScope } from "../http/errors.js";
import type { JsonObject } from "../http/json-body.js";
import { createSession } from "../sessions/session-create.js";
import { assertSessionId, resolveWorkspace } from "../sessions/session-lookup.js";
import { openSession } from "../sessions/session-open.js";
import type { Sessions } from "../sessions/sessions.js";
import { clientIdOf, jsonBody, sessionIdOf } from "./request.js";

const R = HttpRoutes;

/** POST /session: the workspace first (400 / workspace_mismatch), then scope and requested id. */
function parseCreateBody(workspace: string, raw: JsonObject) {
  const cwd = resolveWorkspace(workspace, raw.cwd);
  const parsed = CreateSessionBody.safeParse(raw);
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path[0];
    if (field === "sessionScope") throw invalidSessionScope(raw.sessionScope);
    throw invalidSessionId(raw.sessionId);
  }
  return { cwd, scope: parsed.data.sessionScope ?? "single", sessionId: parsed.data.sessionId };
}

export function sessionRoutes(sessions: Sessions): Hono {
  const open = (action: "load" | "resume") => async (c: Context) => {
    const sessionId = sessionIdOf(c);
    const clientId = clientIdOf(c);
    const raw = await jsonBody(c);
    assertSessionId(sessionId);
    // OpenSessionBody's one field: resolveWorkspace checks it (a `cwd` that is not a string included) and
    // words the 400 as the reference daemon does.
    const cwd = resolveWorkspace(sessions.workspace, raw.cwd);
    return c.json(await openSession(sessions, action, sessionId, cwd, clientId));
  };
  return new Hono()
    .post(R.createSession.path, async (c) => {
      const clientId = clientIdOf(c);
      const body = parseCreateBody(sessions.workspace, await jsonBody(c));
      return c.json(await createSession(sessions, body, clientId));
    })
    .post(R.loadSession.path, open("load"))
    .post(R.resumeSession.path, open("resume"))
    .post(R.heartbeat.path, async (c) => {
      const clientId = clientIdOf(c);
      await jsonBody(c);
      return c.json(sessions.require(sessionIdOf(c)).heartbeat(clientId));
    })
    .post(R.detach.path, async (c) => {
      const clientId = clientIdOf(c);
      await jsonBody(c);
      sessions.require(sessionIdOf(c)).detach(clientId);
      return c.body(null, R.detach.status);
    })
    .delete(R.closeSession.path, async (c) => {
      const clientId = clientIdOf(c);
      // Like cancel, prompt and vote, a client id not attached to the session is refused (400), so nobody
      // closes someone else's session by naming any id; without the header it is accepted (the reference's
      // clients, e.g. the SDK's `closeSession(id)`, send none). 404 first, so a repeated DELETE stays a 404.
      await sessions.require(sessionIdOf(c)).close("client", clientId);
      return c.body(null, R.closeSession.status);
    });
}
