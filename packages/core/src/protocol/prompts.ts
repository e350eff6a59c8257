// Prompts over HTTP: the body of `POST /session/:id/prompt` and the answers of the prompt routes (202 with the
// prompt's id, continue's decision, the queue as `pending-prompts` lists it), and `promptTerminals`, how the
// recent prompts of a session ended, as load and resume report it.
import { z } from "zod";
import { PromptContentBlock } from "./content.js";

/**
 * `POST /session/:id/prompt`. `deadlineMs` (positive integer, null = none) ends the prompt with a turn_error
 * when it runs longer; `_meta` is forwarded to the child without the daemon-only keys.
 */
export const PromptBody = z.object({
  prompt: z.array(PromptContentBlock).min(1),
  deadlineMs: z.number().int().positive().nullish(),
  _meta: z.unknown().optional(),
});
export type PromptBody = z.infer<typeof PromptBody>;

/**
 * 202 of `POST /session/:id/prompt`: the outcome arrives on SSE, after `lastEventId`. `queuePosition` (ours): the
 * prompt waits behind the running one, at this place among the waiting ones (1 = next); absent when it started.
 * `messageId` (ours): the id of the prompt's user message, carried by its echo and by a replay after a load.
 */
export const PromptAccepted = z.object({
  promptId: z.string(),
  messageId: z.string().optional(),
  lastEventId: z.number(),
  eventEpoch: z.string(),
  queuePosition: z.number().int().positive().optional(),
});
export type PromptAccepted = z.infer<typeof PromptAccepted>;

/** `POST /session/:id/continue`: whether an interrupted turn continues (as a tracked prompt, `promptId`). */
export const ContinueResponse = z.object({
  accepted: z.boolean(),
  interruption: z.string(),
  promptId: z.string().optional(),
  lastEventId: z.number(),
  eventEpoch: z.string(),
});
export type ContinueResponse = z.infer<typeof ContinueResponse>;

export const PendingPrompt = z.object({
  promptId: z.string(),
  text: z.string(),
  queuedAt: z.number(),
  state: z.enum(["running", "queued"]),
  originatorClientId: z.string().optional(),
});
export type PendingPrompt = z.infer<typeof PendingPrompt>;

/** `GET /session/:id/pending-prompts`: running first, then queued in order. */
export const PendingPromptsResponse = z.object({ pendingPrompts: z.array(PendingPrompt) });
export type PendingPromptsResponse = z.infer<typeof PendingPromptsResponse>;

export const PromptTerminalState = z.enum(["completed", "cancelled", "error", "interrupted"]);
export type PromptTerminalState = z.infer<typeof PromptTerminalState>;

/**
 * How one prompt ended (the reference daemon's shape). `restoredBy`, `text` and `queuedAt` are ours: the
 * restore prompt that took over an interrupted prompt, and for `code: "never_started"` the prompt's text and
 * when it was accepted, so a client can offer to send it again.
 */
export const PromptTerminal = z.object({
  v: z.literal(1),
  promptId: z.string(),
  terminal: PromptTerminalState,
  code: z.string().optional(),
  stopReason: z.string().optional(),
  restoredBy: z.string().optional(),
  text: z.string().optional(),
  queuedAt: z.number().optional(),
  /** When the terminal entry was written (epoch ms). */
  at: z.number(),
});
export type PromptTerminal = z.infer<typeof PromptTerminal>;
