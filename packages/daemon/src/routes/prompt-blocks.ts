// ACP content blocks a client may put in `POST /session/:id/prompt`. Validated here, before the 202, so a
// malformed block is a 400 for the client instead of a turn_error after the prompt was accepted.
import { z } from "zod";
import { clipEcho } from "../http/echo.js";

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

const KNOWN_TYPES = new Set(["text", "image", "audio", "resource_link", "resource"]);

/** The reason a block is not a valid ACP content block, or undefined when it is. */
export function promptBlockProblem(block: Record<string, unknown>): string | undefined {
  const type = block.type;
  if (typeof type !== "string" || !KNOWN_TYPES.has(type)) {
    const shown = typeof type === "string" ? JSON.stringify(clipEcho(type)) : typeof type;
    return `unsupported content block type ${shown} (expected one of ${[...KNOWN_TYPES].join(", ")})`;
  }
  if (type === "text" && typeof block.text !== "string")
    return "a `text` content block needs a string `text`";
  const parsed = PromptContentBlock.safeParse(block);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? ` at \`${issue.path.join(".")}\`` : "";
  return `invalid \`${type}\` content block${where}: ${issue?.message ?? "malformed"}`;
}
