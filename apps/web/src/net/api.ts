import { CLIENT_DEVICE_HEADER, CLIENT_ID_HEADER } from "@qwen-daemon/core/protocol";
import { record } from "./read.js";
// The daemon's REST calls. Every request carries the bearer token (from `#token=` in the URL) and, when
// we have one for the session, our client id. Failures become ApiError with the daemon's `error`/`code`;
// a request that never reached the daemon (it is down, the network dropped) is an UnreachableError, so the
// page can tell "the daemon said no" from "the daemon is not there".

export class ApiError extends Error {
  override readonly name = "ApiError";
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | undefined,
    readonly body: unknown,
  ) {
    super(message);
  }
}

/** The request did not reach the daemon, or its answer did not reach us. */
export class UnreachableError extends Error {
  override readonly name = "UnreachableError";
}

export type Api = {
  /**
   * Resolves with the parsed JSON body (`{}` for an empty one), typed as the route's answer in the contract
   * (`T`, e.g. AttachResponse); rejects with ApiError / UnreachableError.
   */
  request<T = unknown>(method: string, path: string, body?: unknown, clientId?: string): Promise<T>;
  /** Headers for any daemon request (also used by the event stream). */
  headers(clientId: string | undefined): Record<string, string>;
};

/**
 * The token from a URL fragment such as `#token=abc` (also `#token=abc&session=x`); never from the query
 * string, so it is not sent to the server in the request line or kept in its logs.
 */
export function tokenFromHash(hash: string): string | undefined {
  const value = new URLSearchParams(hash.replace(/^#/, "")).get("token");
  return value ? value : undefined;
}

/** The session a link opens (`#session=<id>`, what the daemon's notifications link to). */
export function sessionFromHash(hash: string): string | undefined {
  const value = new URLSearchParams(hash.replace(/^#/, "")).get("session");
  return value ? value : undefined;
}

export function createApi(options: {
  fetch: typeof fetch;
  token?: string | undefined;
  /** This browser's device id (client-ids.ts `deviceId`), named on every request. */
  device?: string | undefined;
}): Api {
  const headers = (clientId: string | undefined): Record<string, string> => {
    const h: Record<string, string> = {};
    if (options.token) h.authorization = `Bearer ${options.token}`;
    if (options.device) h[CLIENT_DEVICE_HEADER.toLowerCase()] = options.device;
    if (clientId) h[CLIENT_ID_HEADER.toLowerCase()] = clientId;
    return h;
  };

  const request = async <T>(method: string, path: string, body?: unknown, clientId?: string): Promise<T> => {
    const h = headers(clientId);
    if (body !== undefined) h["content-type"] = "application/json";
    let res: Response;
    let text: string;
    try {
      res = await options.fetch(path, {
        method,
        headers: h,
        cache: "no-store",
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      text = await res.text();
    } catch (error) {
      throw new UnreachableError(error instanceof Error ? error.message : String(error));
    }
    let data: unknown;
    try {
      data = text ? JSON.parse(text) : {};
    } catch {
      data = { error: text };
    }
    if (!res.ok) {
      // The contract's ErrorBody: `error`, and a `code` a client may act on.
      const error = record(data);
      const message = typeof error?.error === "string" ? error.error : `${res.status} ${res.statusText}`;
      throw new ApiError(res.status, message, typeof error?.code === "string" ? error.code : undefined, data);
    }
    return data as T;
  };

  return { request, headers };
}
