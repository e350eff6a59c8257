// Which requests the early listener may answer itself, before the app has loaded: exactly the ones the app
// would answer 200 `{"status":"ok"}` without consulting anything but the request. `GET /health` with no
// Origin (the origin guard would have a say) and, on a loopback bind, a Host the host guard accepts.
// Everything else waits for the app, so the answer never depends on which of the two served it.
import { hostnameOfHostHeader, isLoopbackHostname } from "../http/loopback-host.js";

export type EarlyRequest = {
  method?: string | undefined;
  url?: string | undefined;
  headers: { host?: string | undefined; origin?: string | undefined };
};

export const EARLY_HEALTH_BODY = JSON.stringify({ status: "ok" });

export function answersEarly(req: EarlyRequest, bindHostname: string): boolean {
  if (req.method !== "GET" || req.headers.origin !== undefined) return false;
  const url = req.url ?? "";
  const query = url.indexOf("?");
  if ((query === -1 ? url : url.slice(0, query)) !== "/health") return false;
  const bound = bindHostname.toLowerCase();
  if (!isLoopbackHostname(bound)) return true;
  const host = req.headers.host;
  if (host === undefined) return false;
  const name = hostnameOfHostHeader(host);
  return name === bound || isLoopbackHostname(name);
}
