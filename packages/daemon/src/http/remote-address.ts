// The socket's remote address, for the local-only permission policy. Read from the Node request the
// adapter passes as `c.env.incoming`, never from headers (X-Forwarded-For is forgeable).
import type { Context } from "hono";

type NodeEnv = { incoming?: { socket?: { remoteAddress?: string } } } | undefined;

export function socketRemoteAddress(c: Context): string | undefined {
  return (c.env as NodeEnv)?.incoming?.socket?.remoteAddress;
}
