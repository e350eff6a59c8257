// The ACP extension methods spoken between the daemon and its child, with their params and results. The ACP
// SDK needs a params parser to register a custom method; a request that fails it is answered -32602 before any
// handler runs. Standard ACP methods are the SDK's (`methods` of @agentclientprotocol/sdk).
import { z } from "zod";
import { OfferedPermissionOption, PermissionToolCall } from "./permission.js";

/** The names qwen's daemons send (the reference daemon and ours). */
export const ExtensionMethod = {
  /** Read-only replay of a session's history as session/update payloads; never changes state. */
  loadUpdates: "qwen/session/loadUpdates",
  /** Pre-check for continuing an interrupted last turn (continueLastTurn). */
  sessionContinue: "qwen/control/session/continue",
} as const;

/**
 * The same methods under the names the ACP spec reserves for extensions (a leading `_`), which a client
 * library that follows the spec sends. A child serves both spellings.
 */
export const SpecExtensionMethod = {
  loadUpdates: `_${ExtensionMethod.loadUpdates}`,
  sessionContinue: `_${ExtensionMethod.sessionContinue}`,
} as const;

/**
 * reference child -> daemon after every tool result: messages queued for the running turn. Our daemon has no
 * mid-turn queue and always answers DRAINED_MID_TURN_QUEUE.
 */
export const DRAIN_MID_TURN_QUEUE_METHOD = "craft/drainMidTurnQueue";
/** The answer of a daemon with nothing queued mid-turn. */
export const DRAINED_MID_TURN_QUEUE = { messages: [], items: [], hasQueuedPrompt: false } as const;

/** child -> reference daemon before a shell-executing tool runs (the external tool guard). */
export const EXTERNAL_TOOL_GUARD_PREPARE_METHOD = "qwen/control/external_tool_guard/prepare";

export const LoadUpdatesParams = z.looseObject({
  sessionId: z.string().min(1),
  /** The session's workspace; defaults to the child's working directory. */
  cwd: z.string().min(1).optional(),
});
export type LoadUpdatesParams = z.infer<typeof LoadUpdatesParams>;

export const SessionContinueParams = z.looseObject({ sessionId: z.string().min(1) });
export type SessionContinueParams = z.infer<typeof SessionContinueParams>;

/** How an interrupted session ends: nothing to continue, a prompt the model never answered, calls without results. */
export const TurnInterruption = z.enum(["none", "interrupted_prompt", "interrupted_turn"]);
export type TurnInterruption = z.infer<typeof TurnInterruption>;

/** The child's answer to `sessionContinue`: whether it will continue, and what it found. */
export const ContinueDecision = z.object({ accepted: z.boolean(), interruption: TurnInterruption });
export type ContinueDecision = z.infer<typeof ContinueDecision>;

/** An ACP `session/update` payload, relayed as the child sent it (unknown fields pass through to clients). */
export const SessionUpdatePayload = z.looseObject({ sessionUpdate: z.string() });
export type SessionUpdatePayload = z.infer<typeof SessionUpdatePayload>;

/** `session/update` params as the daemon reads and relays them. */
export const SessionUpdateParams = z.looseObject({ sessionId: z.string(), update: SessionUpdatePayload });
export type SessionUpdateParams = z.infer<typeof SessionUpdateParams>;

/** `session/request_permission` params as the daemon reads and relays them. */
export const PermissionRequestParams = z.looseObject({
  sessionId: z.string(),
  toolCall: PermissionToolCall,
  options: z.array(OfferedPermissionOption),
});
export type PermissionRequestParams = z.infer<typeof PermissionRequestParams>;
