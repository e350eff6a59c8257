// Each HTTP route's method, path and success status, without its schemas, so a client that must stay small
// (the web client: no zod in its bundle) builds its calls from the same rows the daemon mounts. routes.ts
// adds each row's body and answer schemas; a row missing there does not compile.

export interface HttpRouteLine {
  readonly method: "GET" | "POST" | "DELETE";
  /** Hono-style pattern: `:name` is one path segment. */
  readonly path: string;
  /** The success status (204 answers have no body). */
  readonly status: 200 | 202 | 204;
}

export const HttpRouteLines = {
  health: { method: "GET", path: "/health", status: 200 },
  capabilities: { method: "GET", path: "/capabilities", status: 200 },
  daemonStatus: { method: "GET", path: "/daemon/status", status: 200 },
  createSession: { method: "POST", path: "/session", status: 200 },
  loadSession: { method: "POST", path: "/session/:id/load", status: 200 },
  resumeSession: { method: "POST", path: "/session/:id/resume", status: 200 },
  prompt: { method: "POST", path: "/session/:id/prompt", status: 202 },
  cancel: { method: "POST", path: "/session/:id/cancel", status: 204 },
  continue: { method: "POST", path: "/session/:id/continue", status: 200 },
  status: { method: "GET", path: "/session/:id/status", status: 200 },
  pendingPrompts: { method: "GET", path: "/session/:id/pending-prompts", status: 200 },
  /** Ours: takes back a prompt that still waits in the queue (409 `prompt_running` once it runs). */
  withdrawPrompt: { method: "DELETE", path: "/session/:id/pending-prompts/:promptId", status: 204 },
  /** Ours: names the session (stored beside its transcript; its `displayName` from then on). */
  renameSession: { method: "POST", path: "/session/:id/name", status: 200 },
  transcript: { method: "GET", path: "/session/:id/transcript", status: 200 },
  heartbeat: { method: "POST", path: "/session/:id/heartbeat", status: 200 },
  detach: { method: "POST", path: "/session/:id/detach", status: 204 },
  closeSession: { method: "DELETE", path: "/session/:id", status: 204 },
  setConfig: { method: "POST", path: "/session/:id/config", status: 200 },
  vote: { method: "POST", path: "/session/:id/permission/:requestId", status: 200 },
  legacyVote: { method: "POST", path: "/permission/:requestId", status: 200 },
  /** SSE (see events.ts); `?maxQueued=16..2048`, headers Last-Event-ID and X-Qwen-Client-Id. */
  events: { method: "GET", path: "/session/:id/events", status: 200 },
  /**
   * Answers from a notification (links.ts): `GET` shows the question with a confirm button (or the answer
   * page) and never changes anything; `POST` answers. Both answer small HTML pages, never JSON, and need no
   * Authorization: the capability in the path is the credential.
   */
  linkPage: { method: "GET", path: "/a/:capability", status: 200 },
  linkAnswer: { method: "POST", path: "/a/:capability", status: 200 },
  workspaceSessions: { method: "GET", path: "/workspace/:cwd/sessions", status: 200 },
} as const satisfies Record<string, HttpRouteLine>;

export type HttpRouteName = keyof typeof HttpRouteLines;

/** The `:name` parameters of a path pattern. */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** The values a route's path needs, by parameter name (none: an empty object). */
export type PathParams<P extends string> = { readonly [K in ParamNames<P>]: string };

/**
 * The URL path of a route with its parameters filled in (each one escaped as one path segment) and an
 * optional query (undefined values left out).
 */
export function routePath<P extends string>(
  line: { readonly path: P },
  params: PathParams<P>,
  query?: Readonly<Record<string, string | number | undefined>>,
): string {
  const values = params as Readonly<Record<string, string>>;
  const path = line.path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`routePath: no value for :${name} of ${line.path}`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {}))
    if (value !== undefined) search.set(key, String(value));
  const q = search.toString();
  return q === "" ? path : `${path}?${q}`;
}
