// Session lifecycle: create/attach, load, resume, heartbeat, detach, delete. Bodies are checked against the
// contract here (in the order the reference daemon reports them: session id, workspace, then the rest).
import { type CreateSessionBody, HttpRoutes } from "@qwen-daemon/core/protocol";
import { type Context, Hono } from "hono";
import type { z } from "zod";
import { invalidSessionId } from "../errors/domain-errors.js";
import { invalidBody, invalidSessionScope } from "../http/errors.js";
import type { JsonObject } from "../http/json-body.js";
import { setSessionConfig } from "../sessions/session-config.js";
import { createSession } from "../sessions/session-create.js";
import { assertSessionId, resolveWorkspace } from "../sessions/session-lookup.js";
import { openSession } from "../sessions/session-open.js";
import { purgeSession } from "../sessions/session-purge.js";
import type { Sessions } from "../sessions/sessions.js";
import { mount, type RouteHandler } from "./mount.js";
import { clientIdOf, sessionIdOf } from "./request.js";

const R = HttpRoutes;

/** POST /session refused: the workspace first (400 / workspace_mismatch), then scope and requested id. */
function refuseCreateBody(workspace: string) {
  return (raw: JsonObject, error: z.ZodError): Error => {
    resolveWorkspace(workspace, raw.cwd);
    if (error.issues[0]?.path[0] === "sessionScope") return invalidSessionScope(raw.sessionScope);
    return invalidSessionId(raw.sessionId);
  };
}

/** Load or resume refused: the session id first, then the one field, worded by resolveWorkspace. */
function refuseOpenBody(workspace: string) {
  return (raw: JsonObject, _error: z.ZodError, c: Context): Error => {
    assertSessionId(sessionIdOf(c));
    resolveWorkspace(workspace, raw.cwd);
    return invalidBody("`cwd` must be a string");
  };
}

function createInput(workspace: string, body: CreateSessionBody) {
  const cwd = resolveWorkspace(workspace, body.cwd);
  return { cwd, scope: body.sessionScope ?? "single", sessionId: body.sessionId };
}

export function sessionRoutes(sessions: Sessions): Hono {
  const app = new Hono();
  const openOptions = { refuse: refuseOpenBody(sessions.workspace) };
  const open =
    (action: "load" | "resume"): RouteHandler<typeof R.loadSession | typeof R.resumeSession> =>
    async (c, body) => {
      const sessionId = sessionIdOf(c);
      const clientId = clientIdOf(c);
      const { value } = await body();
      assertSessionId(sessionId);
      return openSession(
        sessions,
        action,
        sessionId,
        resolveWorkspace(sessions.workspace, value.cwd),
        clientId,
      );
    };
  mount(
    app,
    R.createSession,
    async (c, body) => {
      const clientId = clientIdOf(c);
      const { value } = await body();
      return createSession(sessions, createInput(sessions.workspace, value), clientId);
    },
    { refuse: refuseCreateBody(sessions.workspace) },
  );
  mount(app, R.loadSession, open("load"), openOptions);
  mount(app, R.resumeSession, open("resume"), openOptions);
  mount(app, R.heartbeat, async (c, body) => {
    const clientId = clientIdOf(c);
    await body();
    return sessions.require(sessionIdOf(c)).heartbeat(clientId);
  });
  mount(app, R.detach, async (c, body) => {
    const clientId = clientIdOf(c);
    await body();
    sessions.require(sessionIdOf(c)).detach(clientId);
    return undefined;
  });
  mount(
    app,
    R.setConfig,
    async (c, body) => {
      const clientId = clientIdOf(c);
      const session = sessions.require(sessionIdOf(c));
      session.assertClient(clientId);
      return setSessionConfig(session, (await body()).value);
    },
    {
      refuse: () =>
        invalidBody("Expected {configId: string, value: string | boolean}", "invalid_config_option"),
    },
  );
  mount(app, R.closeSession, async (c) => {
    const clientId = clientIdOf(c);
    const purge = c.req.query("purge");
    if (purge !== undefined && purge !== "true" && purge !== "false")
      throw invalidBody("`purge` must be true or false", "invalid_purge");
    if (purge === "true") {
      const sessionId = sessionIdOf(c);
      assertSessionId(sessionId);
      await purgeSession(sessions, sessionId, clientId);
      return undefined;
    }
    // Like cancel, prompt and vote, a client id not attached to the session is refused (400), so nobody
    // closes someone else's session by naming any id; without the header it is accepted (the reference's
    // clients, e.g. the SDK's `closeSession(id)`, send none). 404 first, so a repeated DELETE stays a 404.
    await sessions.require(sessionIdOf(c)).close("client", clientId);
    return undefined;
  });
  return app;
}
