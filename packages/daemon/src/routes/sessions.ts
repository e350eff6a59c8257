// Session lifecycle: create/attach, load, resume, heartbeat, detach, delete.
import { Hono } from "hono";
import type { SessionService } from "../sessions/session-service.js";
import { clientIdOf, jsonBody, sessionIdOf } from "./request.js";

export function sessionRoutes(service: SessionService): Hono {
  return new Hono()
    .post("/session", async (c) => {
      const clientId = clientIdOf(c);
      const body = await jsonBody(c);
      return c.json(await service.create(body, clientId));
    })
    .post("/session/:id/load", async (c) => {
      const clientId = clientIdOf(c);
      const body = await jsonBody(c);
      return c.json(await service.restore("load", sessionIdOf(c), body, clientId));
    })
    .post("/session/:id/resume", async (c) => {
      const clientId = clientIdOf(c);
      const body = await jsonBody(c);
      return c.json(await service.restore("resume", sessionIdOf(c), body, clientId));
    })
    .post("/session/:id/heartbeat", async (c) => {
      const clientId = clientIdOf(c);
      await jsonBody(c);
      return c.json(service.heartbeat(sessionIdOf(c), clientId));
    })
    .post("/session/:id/detach", async (c) => {
      const clientId = clientIdOf(c);
      await jsonBody(c);
      service.detach(sessionIdOf(c), clientId);
      return c.body(null, 204);
    })
    .delete("/session/:id", async (c) => {
      const clientId = clientIdOf(c);
      await service.closeByClient(sessionIdOf(c), clientId);
      return c.body(null, 204);
    });
}
