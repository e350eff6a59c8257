// Why a prompt body is refused, in the reference daemon's words: the shapes are the contract's (PromptBody,
// PromptContentBlock); the messages name the first thing wrong, so a client can fix its request.
import { PROMPT_BLOCK_TYPES, PromptContentBlock } from "@qwen-daemon/core/protocol";
import type { z } from "zod";
import { clipEcho } from "../errors/echo.js";

const KNOWN_TYPES: ReadonlySet<string> = new Set(PROMPT_BLOCK_TYPES);

/** The reason a block is not a valid ACP content block, or undefined when it is. */
export function promptBlockProblem(block: Record<string, unknown>): string | undefined {
  const type = block.type;
  if (typeof type !== "string" || !KNOWN_TYPES.has(type)) {
    const shown = typeof type === "string" ? JSON.stringify(clipEcho(type)) : typeof type;
    return `unsupported content block type ${shown} (expected one of ${PROMPT_BLOCK_TYPES.join(", ")})`;
  }
  if (type === "text" && typeof block.text !== "string")
    return "a `text` content block needs a string `text`";
  const parsed = PromptContentBlock.safeParse(block);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? ` at \`${issue.path.join(".")}\`` : "";
  return `invalid \`${type}\` content block${where}: ${issue?.message ?? "malformed"}`;
}

/** The message for the first issue PromptBody found in `body` (issues come in field order, then block order). */
export function promptBodyProblem(
  body: Record<string, unknown>,
  issue: z.core.$ZodIssue | undefined,
): string {
  const [field, index] = issue?.path ?? [];
  if (field === "prompt" && typeof index === "number" && Array.isArray(body.prompt)) {
    const block: unknown = body.prompt[index];
    if (
      typeof block !== "object" ||
      block === null ||
      Array.isArray(block) ||
      typeof (block as { type?: unknown }).type !== "string"
    )
      return "each `prompt` element must be an object (content block)";
    return (
      promptBlockProblem(block as Record<string, unknown>) ?? "each `prompt` element must be a content block"
    );
  }
  return "`prompt` is required and must be a non-empty array of content blocks";
}
