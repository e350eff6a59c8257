// Prompts: admit (202, outcome on SSE), cancel, continue an interrupted turn, list the queue.
import {
  type ContentBlock,
  HttpRoutes,
  type PendingPromptsResponse,
  PromptBody,
} from "@qwen-daemon/core/protocol";
import { Hono } from "hono";
import { invalidBody, invalidDeadline } from "../http/errors.js";
import type { JsonObject } from "../http/json-body.js";
import { continueLastTurn } from "../sessions/continue-turn.js";
import type { Sessions } from "../sessions/sessions.js";
import { promptBodyProblem } from "./prompt-blocks.js";
import { clientIdOf, jsonBody, sessionIdOf } from "./request.js";

export type PromptInput = { prompt: ContentBlock[]; deadlineMs?: number; meta?: unknown };

/**
 * Validates a prompt body against the contract, with the reference daemon's messages. The blocks are
 * forwarded as the client wrote them (the schema checks them; it does not rewrite them).
 */
export function parsePromptBody(body: JsonObject): PromptInput {
  const parsed = PromptBody.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (issue?.path[0] === "deadlineMs") throw invalidDeadline();
    throw invalidBody(promptBodyProblem(body, issue));
  }
  const { deadlineMs } = parsed.data;
  return {
    prompt: body.prompt as ContentBlock[],
    ...(typeof deadlineMs === "number" ? { deadlineMs } : {}),
    ...(body._meta !== undefined ? { meta: body._meta } : {}),
  };
}

const R = HttpRoutes;

export function promptRoutes(sessions: Sessions): Hono {
  return new Hono()
    .post(R.prompt.path, async (c) => {
      const clientId = clientIdOf(c);
      const input = parsePromptBody(await jsonBody(c));
      return c.json(await sessions.require(sessionIdOf(c)).prompt(input, clientId), R.prompt.status);
    })
    .post(R.cancel.path, async (c) => {
      const clientId = clientIdOf(c);
      await jsonBody(c);
      sessions.require(sessionIdOf(c)).cancel(clientId);
      return c.body(null, R.cancel.status);
    })
    .post(R.continue.path, async (c) => {
      const clientId = clientIdOf(c);
      await jsonBody(c);
      return c.json(await continueLastTurn(sessions, sessionIdOf(c), clientId));
    })
    .get(R.pendingPrompts.path, (c) => {
      const session = sessions.require(sessionIdOf(c));
      const answer: PendingPromptsResponse = {
        pendingPrompts: session.queue.list().map((p) => ({
          promptId: p.promptId,
          text: p.text,
          queuedAt: p.queuedAt,
          state: p.state,
          ...(p.originatorClientId !== undefined ? { originatorClientId: p.originatorClientId } : {}),
        })),
      };
      return c.json(answer);
    });
}
