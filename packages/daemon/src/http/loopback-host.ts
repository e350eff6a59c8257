// Loopback judged from names: used for the bind address (is a token mandatory?) and for the Host
// header allowlist. Votes under the local-only policy use the socket address instead (permission/loopback-address.ts).
import { isLoopbackAddress } from "../permission/loopback-address.js";

/** True for `localhost`, `*.localhost`, 127.0.0.0/8, `::1` (bracketed or not). */
export function isLoopbackHostname(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  return isLoopbackAddress(host);
}

/** The host name of a Host header value (`name`, `name:port`, `[v6]:port`), lower-cased. */
export function hostnameOfHostHeader(value: string): string {
  const trimmed = value.trim().toLowerCase();
  if (trimmed.startsWith("[")) {
    const end = trimmed.indexOf("]");
    return end === -1 ? trimmed : trimmed.slice(0, end + 1);
  }
  const colon = trimmed.lastIndexOf(":");
  return colon === -1 ? trimmed : trimmed.slice(0, colon);
}
