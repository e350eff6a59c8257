// Reading the parts of a request every route needs, with the daemon's validation rules applied.

import { CLIENT_DEVICE_HEADER, CLIENT_ID_HEADER } from "@qwen-daemon/core/protocol";
import type { Context } from "hono";
import { parseClientIdHeader } from "../http/client-id.js";

/** The X-Qwen-Client-Id header (syntax checked; registration is checked by the session). */
export function clientIdOf(c: Context): string | undefined {
  return parseClientIdHeader(c.req.header(CLIENT_ID_HEADER));
}

/** The device the client names (`X-Qwen-Client-Device`, same form as a client id; 400 when malformed). */
export function clientDeviceOf(c: Context): string | undefined {
  return parseClientIdHeader(c.req.header(CLIENT_DEVICE_HEADER));
}

/** The `:id` path parameter. */
export function sessionIdOf(c: Context): string {
  return c.req.param("id") ?? "";
}
