import { isIPv4, isIPv6 } from "node:net";

/**
 * Whether a socket's remote address is loopback: 127.0.0.0/8, ::1, or IPv4-mapped
 * ::ffff:127.x.y.z in any spelling. Takes the socket address only: headers such as
 * X-Forwarded-For are forgeable and must never reach this check.
 */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined || address === "") return false;
  if (isIPv4(address)) return address.startsWith("127.");
  // Only a real IPv6 literal may reach the URL parser below (no "[::1]:80/..." smuggling).
  if (!isIPv6(address)) return false;
  let canonical: string;
  try {
    // The WHATWG URL parser canonicalises IPv6 (zero compression, lower case, mapped IPv4
    // as hex), so ::1, 0:0:0:0:0:0:0:1 and ::ffff:127.0.0.1 each reduce to one spelling.
    canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    // Scoped literals ("fe80::1%eth0") pass isIPv6 but not the URL parser. Sockets report
    // loopback peers unscoped, so refusing these errs on the safe side.
    return false;
  }
  return canonical === "::1" || /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(canonical);
}
