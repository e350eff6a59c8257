// Naming a session (ours): `POST /session/:id/name {name}` stores the name durably beside the transcript
// (sessions/session-names.ts); from then on the session's status and its list entry carry it as
// `displayName`, also after a restart. A client id not attached to the session is refused, as for prompts.
import { HttpRoutes } from "@qwen-daemon/core/protocol";
import { Hono } from "hono";
import { invalidBody } from "../http/errors.js";
import type { Sessions } from "../sessions/sessions.js";
import { mount } from "./mount.js";
import { clientIdOf, sessionIdOf } from "./request.js";

export function sessionNameRoutes(sessions: Sessions): Hono {
  const app = new Hono();
  mount(
    app,
    HttpRoutes.renameSession,
    async (c, body) => {
      const clientId = clientIdOf(c);
      const session = sessions.require(sessionIdOf(c));
      session.assertClient(clientId);
      const { name } = (await body()).value;
      await sessions.names.set(sessions.workspace, session.sessionId, name, sessions.options.clock.now());
      session.touch();
      return { sessionId: session.sessionId, displayName: name };
    },
    { refuse: () => invalidBody("`name` must be a string of 1 to 200 characters") },
  );
  return app;
}
