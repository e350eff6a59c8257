// The daemon's SSE events (docs/protocol.md "Events"): the envelope every frame shares and, per event type, the
// schema of its `data`. `defineEvent(type, schema)` is the one way an event type comes to exist: the daemon's
// event bus builds events from these definitions (and checks their data against them in tests), the SSE route
// tells stream-control frames by them, and clients (the web client) read frames typed by them.
import { z } from "zod";
import { SessionUpdatePayload } from "./methods.js";
import { ForbiddenReason, OfferedPermissionOption, PermissionToolCall, VoteOutcome } from "./permission.js";

/** Version stamped on every frame (`v`), so clients can reject a future incompatible shape. */
export const EVENT_SCHEMA_VERSION = 1 as const;

/**
 * A frame as SSE, `/load`'s `compactedReplay` and `/transcript` carry it. `id` is per session and per daemon
 * process; stream-control frames and the pending-permission snapshot of a subscriber without a cursor have none.
 */
export type EventEnvelope<T extends string = string, D = Record<string, unknown>> = {
  id?: number;
  v: typeof EVENT_SCHEMA_VERSION;
  type: T;
  data: D;
  promptId?: string;
  originatorClientId?: string;
  _meta: { serverTimestamp: number };
};

/** Envelope fields a producer may attach to an event besides its data. */
export type EventExtra = { promptId?: string; originatorClientId?: string };

export interface EventDefinition<T extends string = string, S extends z.ZodType = z.ZodType> {
  readonly type: T;
  readonly schema: S;
  /** Describes the stream itself, not the session: never stored in the ring, sent without an `id:` line. */
  readonly control: boolean;
}

export function defineEvent<T extends string, S extends z.ZodType>(
  type: T,
  schema: S,
  options: { control?: boolean } = {},
): EventDefinition<T, S> {
  return { type, schema, control: options.control === true };
}

const SessionEvent = { sessionId: z.string() };
const PromptEvent = { sessionId: z.string(), promptId: z.string() };
const RequestEvent = { requestId: z.string(), sessionId: z.string() };

export const PermissionRequestData = z.object({
  ...RequestEvent,
  toolCall: PermissionToolCall,
  options: z.array(OfferedPermissionOption),
});
export type PermissionRequestData = z.infer<typeof PermissionRequestData>;

export const DaemonEvents = {
  /** ACP session/update notifications; the daemon echoes each prompt block as a `user_message_chunk`. */
  sessionUpdate: defineEvent("session_update", z.object({ ...SessionEvent, update: SessionUpdatePayload })),
  permissionRequest: defineEvent("permission_request", PermissionRequestData),
  /**
   * `voterClientId` when a client decided; `answers` (ours) when a question was answered; `voterDevice` (ours)
   * the device the voter named (`X-Qwen-Client-Device`).
   */
  permissionResolved: defineEvent(
    "permission_resolved",
    z.object({
      ...RequestEvent,
      outcome: VoteOutcome,
      voterClientId: z.string().optional(),
      voterDevice: z.string().optional(),
      answers: z.record(z.string(), z.string()).optional(),
      reason: z.string().optional(),
      /** `answer_journal`: an answer given before a restart, applied to the re-asked question. */
      source: z.string().optional(),
    }),
  ),
  permissionAlreadyResolved: defineEvent(
    "permission_already_resolved",
    z.object({ ...RequestEvent, outcome: VoteOutcome, reason: z.string().optional() }),
  ),
  permissionPartialVote: defineEvent(
    "permission_partial_vote",
    z.object({
      ...RequestEvent,
      votesReceived: z.number(),
      votesNeeded: z.number(),
      quorum: z.number(),
      optionTallies: z.record(z.string(), z.number()),
    }),
  ),
  permissionForbidden: defineEvent(
    "permission_forbidden",
    z.object({ ...RequestEvent, clientId: z.string().optional(), reason: ForbiddenReason }),
  ),
  turnComplete: defineEvent("turn_complete", z.object({ ...PromptEvent, stopReason: z.string() })),
  turnError: defineEvent(
    "turn_error",
    z.object({ ...PromptEvent, message: z.string(), code: z.string().optional() }),
  ),
  promptCancelled: defineEvent("prompt_cancelled", z.object(PromptEvent)),
  /**
   * Only for a prompt that had to wait behind another (as the reference does); `position` (ours) is its place
   * among the waiting prompts, 1 = next.
   */
  pendingPromptAdded: defineEvent(
    "pending_prompt_added",
    z.object({
      ...PromptEvent,
      text: z.string(),
      queuedAt: z.number(),
      position: z.number().int().positive().optional(),
    }),
  ),
  pendingPromptStarted: defineEvent("pending_prompt_started", z.object({ ...PromptEvent, text: z.string() })),
  pendingPromptCompleted: defineEvent(
    "pending_prompt_completed",
    z.object({ ...PromptEvent, state: z.enum(["completed", "cancelled"]) }),
  ),
  /** `reason`: `client` (DELETE), `idle_timeout`, `shutdown`. */
  sessionClosed: defineEvent("session_closed", z.object({ ...SessionEvent, reason: z.string() })),
  sessionDied: defineEvent(
    "session_died",
    z.object({
      ...SessionEvent,
      reason: z.string(),
      exitCode: z.number().nullable(),
      signal: z.string().nullable(),
    }),
  ),
  /**
   * Shared storage (docs/storage.md): another daemon took the session over (this one's lease had run out);
   * `owner` is the URL of the daemon that holds it now. This daemon has dropped the session.
   */
  sessionOwnedElsewhere: defineEvent(
    "session_owned_elsewhere",
    z.object({ ...SessionEvent, owner: z.string() }),
  ),
  /** After a `Last-Event-ID` replay; `lastEventId` is the older alias of `lastReplayedEventId`. */
  replayComplete: defineEvent(
    "replay_complete",
    z.object({
      replayedCount: z.number(),
      lastReplayedEventId: z.number().optional(),
      lastEventId: z.number().optional(),
    }),
    { control: true },
  ),
  /** The cursor cannot be served from the ring (`ring_evicted`) or belongs to another sequence (`epoch_reset`). */
  stateResyncRequired: defineEvent(
    "state_resync_required",
    z.object({ reason: z.string(), lastDeliveredId: z.number(), earliestAvailableId: z.number() }),
    { control: true },
  ),
  /** Reference-compatible terminal frame of a subscriber evicted for reading too slowly. */
  clientEvicted: defineEvent(
    "client_evicted",
    z.object({
      reason: z.string(),
      droppedAfter: z.number(),
      queueSize: z.number(),
      maxQueued: z.number(),
    }),
    { control: true },
  ),
} as const;

type Definitions = typeof DaemonEvents;

/** Every event type the daemon emits. */
export type DaemonEventType = Definitions[keyof Definitions]["type"];

/** The event types by name (`DaemonEventType.turnComplete === "turn_complete"`), so a typo does not compile. */
export const DaemonEventType = Object.fromEntries(
  Object.entries(DaemonEvents).map(([name, event]) => [name, event.type]),
) as { readonly [K in keyof Definitions]: Definitions[K]["type"] };

type DefinitionOf<T extends DaemonEventType> = Extract<Definitions[keyof Definitions], { type: T }>;

/** The `data` of an event of type `T`. */
export type DaemonEventData<T extends DaemonEventType> = z.infer<DefinitionOf<T>["schema"]>;

/** A frame of any of the daemon's event types, narrowed by `type`. */
export type DaemonEventFrame = {
  [T in DaemonEventType]: EventEnvelope<T, DaemonEventData<T>>;
}[DaemonEventType];

const BY_TYPE: ReadonlyMap<string, EventDefinition> = new Map(
  Object.values(DaemonEvents).map((event) => [event.type, event]),
);

/** The definition of an event type, or undefined for a type the daemon does not emit. */
export function eventDefinition(type: string): EventDefinition | undefined {
  return BY_TYPE.get(type);
}

export function isDaemonEventType(value: string): value is DaemonEventType {
  return BY_TYPE.has(value);
}

/**
 * Frames that describe the stream itself rather than the session. They carry no `id` (so an SSE client's
 * Last-Event-ID never points at them) and are never stored in the ring.
 */
export const STREAM_CONTROL_EVENT_TYPES: ReadonlySet<DaemonEventType> = new Set(
  Object.values(DaemonEvents).flatMap((event) => (event.control ? [event.type] : [])),
);
