// The daemon's HTTP routes as data: method, path, the body it reads and the answer it gives on success, each
// a schema of this contract. The daemon's routes parse bodies with these schemas; its tests check every answer
// of theirs against this table; a client types its calls by it. A new route is a row of route-lines.ts
// (method, path, status) and one here (its schemas).
import type { z } from "zod";
import { PermissionVoteBody } from "./permission.js";
import { ContinueResponse, PendingPromptsResponse, PromptAccepted, PromptBody } from "./prompts.js";
import { type HttpRouteLine, HttpRouteLines, type HttpRouteName } from "./route-lines.js";
import { CapabilitiesResponse, DaemonStatusResponse, EmptyResponse, HealthResponse } from "./service.js";
import {
  AttachResponse,
  CreateSessionBody,
  HeartbeatResponse,
  OpenSessionBody,
  OpenSessionResponse,
  RenameSessionBody,
  RenameSessionResponse,
  SessionListPage,
  SessionSummary,
  SetConfigBody,
  SetConfigResponse,
  TranscriptResponse,
} from "./sessions.js";

export interface HttpRoute extends HttpRouteLine {
  /** What the body must be (routes without one read any JSON object, or nothing). */
  readonly body?: z.ZodType;
  /** The success answer (204 answers have none). */
  readonly response?: z.ZodType;
}

const L = HttpRouteLines;

export const HttpRoutes = {
  health: { ...L.health, response: HealthResponse },
  capabilities: { ...L.capabilities, response: CapabilitiesResponse },
  daemonStatus: { ...L.daemonStatus, response: DaemonStatusResponse },
  createSession: { ...L.createSession, body: CreateSessionBody, response: AttachResponse },
  loadSession: { ...L.loadSession, body: OpenSessionBody, response: OpenSessionResponse },
  resumeSession: { ...L.resumeSession, body: OpenSessionBody, response: OpenSessionResponse },
  prompt: { ...L.prompt, body: PromptBody, response: PromptAccepted },
  cancel: L.cancel,
  continue: { ...L.continue, response: ContinueResponse },
  status: { ...L.status, response: SessionSummary },
  pendingPrompts: { ...L.pendingPrompts, response: PendingPromptsResponse },
  withdrawPrompt: L.withdrawPrompt,
  renameSession: { ...L.renameSession, body: RenameSessionBody, response: RenameSessionResponse },
  transcript: { ...L.transcript, response: TranscriptResponse },
  heartbeat: { ...L.heartbeat, response: HeartbeatResponse },
  detach: L.detach,
  /** `?purge=true` also deletes the session's transcript and journals (the live session is closed first). */
  closeSession: L.closeSession,
  setConfig: { ...L.setConfig, body: SetConfigBody, response: SetConfigResponse },
  vote: { ...L.vote, body: PermissionVoteBody, response: EmptyResponse },
  legacyVote: { ...L.legacyVote, body: PermissionVoteBody, response: EmptyResponse },
  /** SSE (see events.ts); `?maxQueued=16..2048`, headers Last-Event-ID and X-Qwen-Client-Id. */
  events: L.events,
  linkPage: L.linkPage,
  linkAnswer: L.linkAnswer,
  workspaceSessions: { ...L.workspaceSessions, response: SessionListPage },
} as const satisfies Record<HttpRouteName, HttpRoute>;

/** The body a route takes, as a client writes it (any JSON object for a route without a schema). */
export type BodyOf<R extends HttpRoute> = R extends { body: z.ZodType }
  ? z.input<R["body"]>
  : Record<string, unknown>;

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
