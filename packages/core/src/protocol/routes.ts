// The daemon's HTTP routes as data: method, path, the body it reads and the answer it gives on success, each
// a schema of this contract. The daemon's routes parse bodies with these schemas; its tests check every answer
// of theirs against this table; a client types its calls by it. A new route is a row here first.
import type { z } from "zod";
import { PermissionVoteBody } from "./permission.js";
import { ContinueResponse, PendingPromptsResponse, PromptAccepted, PromptBody } from "./prompts.js";
import { CapabilitiesResponse, DaemonStatusResponse, EmptyResponse, HealthResponse } from "./service.js";
import {
  AttachResponse,
  CreateSessionBody,
  HeartbeatResponse,
  OpenSessionBody,
  OpenSessionResponse,
  SessionListPage,
  SessionSummary,
  TranscriptResponse,
} from "./sessions.js";

export interface HttpRoute {
  readonly method: "GET" | "POST" | "DELETE";
  /** Hono-style pattern: `:name` is one path segment. */
  readonly path: string;
  /** What the body must be (routes without one read any JSON object, or nothing). */
  readonly body?: z.ZodType;
  /** The success answer (204 answers have none). */
  readonly status: 200 | 202 | 204;
  readonly response?: z.ZodType;
}

export const HttpRoutes = {
  health: { method: "GET", path: "/health", status: 200, response: HealthResponse },
  capabilities: { method: "GET", path: "/capabilities", status: 200, response: CapabilitiesResponse },
  daemonStatus: { method: "GET", path: "/daemon/status", status: 200, response: DaemonStatusResponse },
  createSession: {
    method: "POST",
    path: "/session",
    body: CreateSessionBody,
    status: 200,
    response: AttachResponse,
  },
  loadSession: {
    method: "POST",
    path: "/session/:id/load",
    body: OpenSessionBody,
    status: 200,
    response: OpenSessionResponse,
  },
  resumeSession: {
    method: "POST",
    path: "/session/:id/resume",
    body: OpenSessionBody,
    status: 200,
    response: OpenSessionResponse,
  },
  prompt: {
    method: "POST",
    path: "/session/:id/prompt",
    body: PromptBody,
    status: 202,
    response: PromptAccepted,
  },
  cancel: { method: "POST", path: "/session/:id/cancel", status: 204 },
  continue: { method: "POST", path: "/session/:id/continue", status: 200, response: ContinueResponse },
  status: { method: "GET", path: "/session/:id/status", status: 200, response: SessionSummary },
  pendingPrompts: {
    method: "GET",
    path: "/session/:id/pending-prompts",
    status: 200,
    response: PendingPromptsResponse,
  },
  transcript: { method: "GET", path: "/session/:id/transcript", status: 200, response: TranscriptResponse },
  heartbeat: { method: "POST", path: "/session/:id/heartbeat", status: 200, response: HeartbeatResponse },
  detach: { method: "POST", path: "/session/:id/detach", status: 204 },
  closeSession: { method: "DELETE", path: "/session/:id", status: 204 },
  vote: {
    method: "POST",
    path: "/session/:id/permission/:requestId",
    body: PermissionVoteBody,
    status: 200,
    response: EmptyResponse,
  },
  legacyVote: {
    method: "POST",
    path: "/permission/:requestId",
    body: PermissionVoteBody,
    status: 200,
    response: EmptyResponse,
  },
  /** SSE (see events.ts); `?maxQueued=16..2048`, headers Last-Event-ID and X-Qwen-Client-Id. */
  events: { method: "GET", path: "/session/:id/events", status: 200 },
  workspaceSessions: {
    method: "GET",
    path: "/workspace/:cwd/sessions",
    status: 200,
    response: SessionListPage,
  },
} as const satisfies Record<string, HttpRoute>;

/** The success answer of a route, typed. */
export type ResponseOf<R extends HttpRoute> = R extends { response: z.ZodType }
  ? z.infer<R["response"]>
  : never;

/** The route a request is for (path without its query), or undefined when none matches. */
export function routeOf(method: string, path: string): HttpRoute | undefined {
  const segments = path.split("?")[0]?.split("/") ?? [];
  return Object.values(HttpRoutes).find((route: HttpRoute) => {
    if (route.method !== method) return false;
    const pattern = route.path.split("/");
    return (
      pattern.length === segments.length &&
      pattern.every((part, i) => (part.startsWith(":") ? (segments[i] ?? "") !== "" : part === segments[i]))
    );
  });
}
