// Prompts: admit (202, outcome on SSE), cancel, continue an interrupted turn, list the queue.
import { Hono } from "hono";
import { invalidBody, invalidDeadline } from "../http/errors.js";
import type { JsonObject } from "../http/json-body.js";
import type { ContentBlock } from "../sessions/prompt-queue.js";
import type { SessionService } from "../sessions/session-service.js";
import { promptBlockProblem } from "./prompt-blocks.js";
import { clientIdOf, jsonBody, sessionIdOf } from "./request.js";

/** Validates a prompt body with the reference daemon's messages. */
export function parsePromptBody(body: JsonObject): {
  prompt: ContentBlock[];
  deadlineMs?: number;
  meta?: unknown;
} {
  const prompt = body.prompt;
  if (!Array.isArray(prompt) || prompt.length === 0) {
    throw invalidBody("`prompt` is required and must be a non-empty array of content blocks");
  }
  for (const block of prompt) {
    if (
      typeof block !== "object" ||
      block === null ||
      Array.isArray(block) ||
      typeof block.type !== "string"
    ) {
      throw invalidBody("each `prompt` element must be an object (content block)");
    }
    const problem = promptBlockProblem(block as Record<string, unknown>);
    if (problem !== undefined) throw invalidBody(problem);
  }
  const deadline = body.deadlineMs;
  if (deadline !== undefined && deadline !== null) {
    if (typeof deadline !== "number" || !Number.isSafeInteger(deadline) || deadline <= 0)
      throw invalidDeadline();
  }
  return {
    prompt: prompt as ContentBlock[],
    ...(typeof deadline === "number" ? { deadlineMs: deadline } : {}),
    ...(body._meta !== undefined ? { meta: body._meta } : {}),
  };
}

export function promptRoutes(service: SessionService): Hono {
  return new Hono()
    .post("/session/:id/prompt", async (c) => {
      const clientId = clientIdOf(c);
      const input = parsePromptBody(await jsonBody(c));
      return c.json(await service.prompt(sessionIdOf(c), input, clientId), 202);
    })
    .post("/session/:id/cancel", async (c) => {
      const clientId = clientIdOf(c);
      await jsonBody(c);
      service.cancel(sessionIdOf(c), clientId);
      return c.body(null, 204);
    })
    .post("/session/:id/continue", async (c) => {
      const clientId = clientIdOf(c);
      await jsonBody(c);
      return c.json(await service.continue(sessionIdOf(c), clientId));
    })
    .get("/session/:id/pending-prompts", (c) => {
      const session = service.require(sessionIdOf(c));
      return c.json({
        pendingPrompts: session.queue.list().map((p) => ({
          promptId: p.promptId,
          text: p.text,
          queuedAt: p.queuedAt,
          state: p.state,
          ...(p.originatorClientId !== undefined ? { originatorClientId: p.originatorClientId } : {}),
        })),
      });
    });
}
