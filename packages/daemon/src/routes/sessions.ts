// Session lifecycle: create/attach, load, resume, heartbeat, detach, delete. Bodies are checked against the
// contract here (in the order the reference daemon reports them: session id, workspace, then the rest).
import { CreateSessionBody, HttpRoutes } from "@qwen-daemon/core/protocol";
import { type Context, Hono } from "hono";
import { invalidSessionId, invalidSessionScope } from "../http/errors.js";
import type { JsonObject } from "../http/json-body.js";
import type { SessionService } from "../sessions/session-service.js";
import { clientIdOf, jsonBody, sessionIdOf } from "./request.js";

const R = HttpRoutes;

/** POST /session: the workspace first (400 / workspace_mismatch), then scope and requested id. */
function parseCreateBody(service: SessionService, raw: JsonObject) {
  const cwd = service.resolveWorkspace(raw.cwd);
  const parsed = CreateSessionBody.safeParse(raw);
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path[0];
    if (field === "sessionScope") throw invalidSessionScope(raw.sessionScope);
    throw invalidSessionId(raw.sessionId);
  }
  return { cwd, scope: parsed.data.sessionScope ?? "single", sessionId: parsed.data.sessionId };
}

export function sessionRoutes(service: SessionService): Hono {
  const open = (action: "load" | "resume") => async (c: Context) => {
    const sessionId = sessionIdOf(c);
    const clientId = clientIdOf(c);
    const raw = await jsonBody(c);
    service.assertSessionId(sessionId);
    const cwd = service.resolveWorkspace(raw.cwd);
    return c.json(await service.open(action, sessionId, cwd, clientId));
  };
  return new Hono()
    .post(R.createSession.path, async (c) => {
      const clientId = clientIdOf(c);
      const body = parseCreateBody(service, await jsonBody(c));
      return c.json(await service.create(body, clientId));
    })
    .post(R.loadSession.path, open("load"))
    .post(R.resumeSession.path, open("resume"))
    .post(R.heartbeat.path, async (c) => {
      const clientId = clientIdOf(c);
      await jsonBody(c);
      return c.json(service.heartbeat(sessionIdOf(c), clientId));
    })
    .post(R.detach.path, async (c) => {
      const clientId = clientIdOf(c);
      await jsonBody(c);
      service.detach(sessionIdOf(c), clientId);
      return c.body(null, R.detach.status);
    })
    .delete(R.closeSession.path, async (c) => {
      const clientId = clientIdOf(c);
      await service.closeByClient(sessionIdOf(c), clientId);
      return c.body(null, R.closeSession.status);
    });
}
