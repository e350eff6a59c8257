// The daemon's REST calls. Every request carries the bearer token (from `#token=` in the URL) and, when
// we have one for the session, our client id. Failures become ApiError with the daemon's `error`/`code`.

export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} message
   * @param {string | undefined} code
   * @param {any} body
   */
  constructor(status, message, code, body) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

/**
 * The token from a URL fragment such as `#token=abc` (also `#token=abc&x=y`); never from the query
 * string, so it is not sent to the server in the request line or kept in its logs.
 * @param {string} hash  `location.hash`
 */
export function tokenFromHash(hash) {
  const value = new URLSearchParams(hash.replace(/^#/, "")).get("token");
  return value ? value : undefined;
}

/**
 * @param {{ fetch: typeof fetch, token?: string | undefined }} options
 */
export function createApi(options) {
  /**
   * Headers for any daemon request (also used by the event stream).
   * @param {string | undefined} clientId
   * @returns {Record<string, string>}
   */
  const headers = (clientId) => {
    /** @type {Record<string, string>} */
    const h = {};
    if (options.token) h.authorization = `Bearer ${options.token}`;
    if (clientId) h["x-qwen-client-id"] = clientId;
    return h;
  };

  /**
   * @param {string} method
   * @param {string} path
   * @param {unknown} [body]
   * @param {string} [clientId]
   * @returns {Promise<any>}
   */
  const request = async (method, path, body, clientId) => {
    /** @type {Record<string, string>} */
    const h = headers(clientId);
    if (body !== undefined) h["content-type"] = "application/json";
    const res = await options.fetch(path, {
      method,
      headers: h,
      cache: "no-store",
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    let data;
    try {
      data = text ? JSON.parse(text) : {};
    } catch {
      data = { error: text };
    }
    if (!res.ok) {
      const message = typeof data?.error === "string" ? data.error : `${res.status} ${res.statusText}`;
      throw new ApiError(res.status, message, typeof data?.code === "string" ? data.code : undefined, data);
    }
    return data;
  };

  return { request, headers };
}

/**
 * `/session/<id>/<rest>` with the id escaped.
 * @param {string} sessionId
 * @param {string} [rest]
 */
export function sessionPath(sessionId, rest) {
  const base = `/session/${encodeURIComponent(sessionId)}`;
  return rest ? `${base}/${rest}` : base;
}
