// The ACP content blocks a client may put in `POST /session/:id/prompt` (text, image, audio, resource links
// and embedded resources). The daemon validates them before it answers 202, so a malformed block is a 400 for
// the client instead of a turn_error after the prompt was accepted; it forwards them to the child as they are.
import { z } from "zod";

const Annotated = { annotations: z.record(z.string(), z.unknown()).nullish(), _meta: z.unknown().optional() };

export const PromptContentBlock = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string(), ...Annotated }),
  z.object({
    type: z.literal("image"),
    data: z.string(),
    mimeType: z.string(),
    uri: z.string().nullish(),
    ...Annotated,
  }),
  z.object({ type: z.literal("audio"), data: z.string(), mimeType: z.string(), ...Annotated }),
  z.object({
    type: z.literal("resource_link"),
    uri: z.string(),
    name: z.string(),
    title: z.string().nullish(),
    description: z.string().nullish(),
    mimeType: z.string().nullish(),
    size: z.number().nullish(),
    ...Annotated,
  }),
  z.object({
    type: z.literal("resource"),
    resource: z.union([
      z.object({ uri: z.string(), text: z.string(), mimeType: z.string().nullish() }),
      z.object({ uri: z.string(), blob: z.string(), mimeType: z.string().nullish() }),
    ]),
    ...Annotated,
  }),
]);
export type PromptContentBlock = z.infer<typeof PromptContentBlock>;

/** The block types PromptContentBlock knows. */
export const PROMPT_BLOCK_TYPES: readonly PromptContentBlock["type"][] = [
  "text",
  "image",
  "audio",
  "resource_link",
  "resource",
];

/**
 * A content block as it travels on to the child: the client's object with its own keys (validated against
 * PromptContentBlock first; the daemon does not rewrite what it forwards, beyond stripping daemon `_meta`).
 */
export type ContentBlock = Record<string, unknown> & { type: string };
