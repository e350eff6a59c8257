// Sessions over HTTP: create, load/resume ("open"), heartbeat, and the status every session route reports
// (docs/protocol.md "Status"), which the workspace session list pages through.
import { z } from "zod";
import { EVENT_SCHEMA_VERSION } from "./events.js";
import { isValidSessionId } from "./ids.js";
import { PromptTerminal } from "./prompts.js";

/** `POST /session`. `cwd` must be the daemon's workspace (absolute); `sessionScope` defaults to `single`. */
export const CreateSessionBody = z.object({
  cwd: z.string().optional(),
  sessionScope: z.enum(["single", "thread"]).optional(),
  /** Create the session under this id (a valid session id not in use). */
  sessionId: z.string().refine(isValidSessionId, "not a valid session id").optional(),
});
export type CreateSessionBody = z.infer<typeof CreateSessionBody>;
export type SessionScope = NonNullable<CreateSessionBody["sessionScope"]>;

/** `POST /session/:id/load` and `/resume`. */
export const OpenSessionBody = z.object({ cwd: z.string().optional() });
export type OpenSessionBody = z.infer<typeof OpenSessionBody>;

/** What create, load and resume answer: the session, and the client id the daemon minted (or kept). */
/**
 * One of the session's config options as the agent reports it (ACP `SessionConfigOption`): ours are `mode`
 * (the approval mode) and `model`, each a select with `currentValue` and `options: [{value, name,
 * description?}]`. Loose: another agent's options pass through as it sent them.
 */
export const SessionConfigOption = z.looseObject({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  currentValue: z.union([z.string(), z.boolean()]),
  category: z.string().nullish(),
  description: z.string().nullish(),
  options: z.array(z.record(z.string(), z.unknown())).optional(),
});
export type SessionConfigOption = z.infer<typeof SessionConfigOption>;

export const AttachResponse = z.object({
  sessionId: z.string(),
  workspaceCwd: z.string(),
  /** False when this request created (or brought back) the session. */
  attached: z.boolean(),
  clientId: z.string(),
  createdAt: z.string(),
  /** The session's config options, when its agent reports them (ours: `mode` and `model`). */
  configOptions: z.array(SessionConfigOption).optional(),
});
export type AttachResponse = z.infer<typeof AttachResponse>;

/** A frame of `compactedReplay` or of a transcript: a session event with its id. */
export const ReplayedEvent = z.looseObject({
  id: z.number(),
  v: z.literal(EVENT_SCHEMA_VERSION),
  type: z.string(),
  data: z.record(z.string(), z.unknown()),
  _meta: z.object({ serverTimestamp: z.number() }),
});
export type ReplayedEvent = z.infer<typeof ReplayedEvent>;

/**
 * Ours: what a load or resume did about the way the session's transcript ended after a crash (docs/restore.md
 * "After a crash: how the session ends decides"). `tail`: a question nobody answered, approvals never given, or
 * answers the model never saw; `action`: asked again, the turn continued, or neither (`reason` says why: a
 * switch is off, no client id on the request, the session was busy, or the agent did not offer it). `promptId`
 * is the restore prompt that asks again or continues. Absent when the transcript ends in nothing of the kind.
 */
export const RestoreReport = z.object({
  tail: z.enum(["user_question", "pending_approvals", "answered"]),
  action: z.enum(["asked_again", "continued", "not_restored"]),
  reason: z.enum(["switch_off", "no_client", "busy", "not_offered"]).optional(),
  promptId: z.string().optional(),
});
export type RestoreReport = z.infer<typeof RestoreReport>;

/**
 * `POST /session/:id/load` and `/resume`. A load carries the history as `compactedReplay` (ids 1..n,
 * `lastEventId` = n, the first live event is n+1); a resume carries none (`lastEventId` 0 unless the session
 * was live). `promptTerminals` says how its recent prompts ended (absent when none has).
 */
export const OpenSessionResponse = AttachResponse.extend({
  hasActivePrompt: z.boolean(),
  compactedReplay: z.array(ReplayedEvent).optional(),
  lastEventId: z.number(),
  eventEpoch: z.string(),
  promptTerminals: z.array(PromptTerminal).optional(),
  restore: RestoreReport.optional(),
});
export type OpenSessionResponse = z.infer<typeof OpenSessionResponse>;

/** `POST /session/:id/name` (ours): the name a person gives the session, shown as its `displayName`. */
export const RenameSessionBody = z.object({ name: z.string().trim().min(1).max(200) });
export type RenameSessionBody = z.infer<typeof RenameSessionBody>;

export const RenameSessionResponse = z.object({ sessionId: z.string(), displayName: z.string() });
export type RenameSessionResponse = z.infer<typeof RenameSessionResponse>;

/** `POST /session/:id/heartbeat`. */
export const HeartbeatResponse = z.object({
  sessionId: z.string(),
  clientId: z.string().optional(),
  lastSeenAt: z.number(),
});
export type HeartbeatResponse = z.infer<typeof HeartbeatResponse>;

/** One choice of a waiting interaction, as status shows it (`label`: the option's name). */
export const InteractionOption = z.object({
  optionId: z.string(),
  label: z.string().optional(),
  kind: z.string().optional(),
});
export type InteractionOption = z.infer<typeof InteractionOption>;

/** A waiting question; `answerKey` is the key its answer takes in a vote's `answers`. */
export const UserQuestionInteraction = z.object({
  requestId: z.string(),
  kind: z.literal("user_question"),
  createdAt: z.string(),
  title: z.string().optional(),
  questions: z.array(z.looseObject({ answerKey: z.string() })),
  options: z.array(InteractionOption),
});
export type UserQuestionInteraction = z.infer<typeof UserQuestionInteraction>;

/** A waiting tool permission: what the tool would do. */
export const PermissionInteraction = z.object({
  requestId: z.string(),
  kind: z.literal("permission"),
  createdAt: z.string(),
  action: z.object({
    type: z.string().optional(),
    title: z.string().optional(),
    content: z.unknown().optional(),
    locations: z.unknown().optional(),
    input: z.unknown().optional(),
  }),
  options: z.array(InteractionOption),
});
export type PermissionInteraction = z.infer<typeof PermissionInteraction>;

export const PendingInteraction = z.discriminatedUnion("kind", [
  UserQuestionInteraction,
  PermissionInteraction,
]);
export type PendingInteraction = z.infer<typeof PendingInteraction>;

/**
 * What waits in a session on disk: a question (`--restore-ask-user-question`), or an approval to run a command,
 * edit a file or call an MCP tool (`--restore-pending-approvals`).
 */
export const PendingOnDiskKind = z.enum(["user_question", "exec", "edit", "mcp"]);
export type PendingOnDiskKind = z.infer<typeof PendingOnDiskKind>;

export const TurnError = z.object({ message: z.string(), code: z.string().optional() });
export type TurnError = z.infer<typeof TurnError>;

/**
 * `GET /session/:id/status`, and each entry of the session list. A session only on disk lists with `live`
 * false, no clients and nothing active: load or resume it.
 */
export const SessionSummary = z.object({
  sessionId: z.string(),
  workspaceCwd: z.string(),
  createdAt: z.string(),
  updatedAt: z.string().optional(),
  displayName: z.string().optional(),
  /** Ours: the daemon holds the session in memory. */
  live: z.boolean(),
  clientCount: z.number(),
  hasActivePrompt: z.boolean(),
  pendingPromptCount: z.number(),
  activeWorkState: z.enum(["idle", "active", "unknown"]),
  isWaitingForPermission: z.boolean(),
  isWaitingForUserQuestion: z.boolean(),
  pendingInteractionCount: z.number(),
  hasTurnError: z.boolean(),
  turnError: TurnError.optional(),
  pendingInteractions: z.array(PendingInteraction),
  /**
   * Ours, on sessions that are only on disk: what a load would ask again (one kind per waiting call, in the
   * model's order), read from the transcript's tail when the list is asked for; `[]` when nothing waits.
   * Absent when the daemon does not know: its restore switches are off, the tail cannot be trusted, and on
   * live sessions (their `pendingInteractions` say it).
   */
  pendingOnDisk: z.array(PendingOnDiskKind).optional(),
  /**
   * Ours, with storage shared by hosts (docs/storage.md): the URL of the other daemon whose live lease holds
   * the session; load it there (here a load answers 409 `session_owned_elsewhere` until that lease runs out).
   */
  owner: z.string().optional(),
});
export type SessionSummary = z.infer<typeof SessionSummary>;

/** `GET /workspace/:cwd/sessions?size&cursor`: newest first; `nextCursor` is opaque. */
export const SessionListPage = z.object({
  sessions: z.array(SessionSummary),
  nextCursor: z.string().optional(),
});
export type SessionListPage = z.infer<typeof SessionListPage>;

/** `GET /session/:id/transcript?limit=N`: the persisted history as session_update events. */
export const TranscriptResponse = z.object({
  v: z.literal(1),
  sessionId: z.string(),
  events: z.array(ReplayedEvent),
});
export type TranscriptResponse = z.infer<typeof TranscriptResponse>;

/** `POST /session/:id/config`: sets one config option by its id (`mode`, `model`) to one of its values. */
export const SetConfigBody = z.object({
  configId: z.string().min(1),
  value: z.union([z.string().min(1), z.boolean()]),
});
export type SetConfigBody = z.infer<typeof SetConfigBody>;

/** Every config option as it stands after the change. */
export const SetConfigResponse = z.object({
  sessionId: z.string(),
  configOptions: z.array(SessionConfigOption),
});
export type SetConfigResponse = z.infer<typeof SetConfigResponse>;
