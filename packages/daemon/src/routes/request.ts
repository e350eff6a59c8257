// Reading the parts of a request every route needs, with the daemon's validation rules applied.

import { CLIENT_ID_HEADER } from "@qwen-daemon/core/protocol";
import type { Context } from "hono";
import { parseClientIdHeader } from "../http/client-id.js";
import { type JsonObject, readJsonObject } from "../http/json-body.js";

/** The X-Qwen-Client-Id header (syntax checked; registration is checked by the session). */
export function clientIdOf(c: Context): string | undefined {
  return parseClientIdHeader(c.req.header(CLIENT_ID_HEADER));
}

/** The JSON body (10 MB cap, prototype keys dropped, `{}` when empty). */
export function jsonBody(c: Context): Promise<JsonObject> {
  return readJsonObject(c.req.raw);
}

/** The `:id` path parameter. */
export function sessionIdOf(c: Context): string {
  return c.req.param("id") ?? "";
}
