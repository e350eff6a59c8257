// Prompts: admit (202, outcome on SSE), cancel, continue an interrupted turn, list the queue.
import {
  type ContentBlock,
  HttpRoutes,
  type PendingPromptsResponse,
  type PromptBody,
} from "@qwen-daemon/core/protocol";
import { Hono } from "hono";
import type { z } from "zod";
import { invalidBody, invalidDeadline } from "../http/errors.js";
import type { JsonObject } from "../http/json-body.js";
import { continueLastTurn } from "../sessions/continue-turn.js";
import type { Sessions } from "../sessions/sessions.js";
import { mount } from "./mount.js";
import { promptBodyProblem } from "./prompt-blocks.js";
import { clientIdOf, sessionIdOf } from "./request.js";

export type PromptInput = { prompt: ContentBlock[]; deadlineMs?: number; meta?: unknown };

/** A prompt body the contract refuses, in the reference daemon's words. */
function refusePromptBody(raw: JsonObject, error: z.ZodError): Error {
  const issue = error.issues[0];
  if (issue?.path[0] === "deadlineMs") return invalidDeadline();
  return invalidBody(promptBodyProblem(raw, issue));
}

/**
 * The prompt as the session takes it. The blocks are forwarded as the client wrote them (the schema checked
 * them; it does not rewrite them), and so is `_meta` (the session removes the daemon's own keys).
 */
function promptInput(raw: JsonObject, body: PromptBody): PromptInput {
  const { deadlineMs } = body;
  return {
    prompt: raw.prompt as ContentBlock[],
    ...(typeof deadlineMs === "number" ? { deadlineMs } : {}),
    ...(raw._meta !== undefined ? { meta: raw._meta } : {}),
  };
}

const R = HttpRoutes;

export function promptRoutes(sessions: Sessions): Hono {
  const app = new Hono();
  mount(
    app,
    R.prompt,
    async (c, body) => {
      const clientId = clientIdOf(c);
      const { value, raw } = await body();
      return sessions.require(sessionIdOf(c)).prompt(promptInput(raw, value), clientId);
    },
    { refuse: refusePromptBody },
  );
  mount(app, R.cancel, async (c, body) => {
    const clientId = clientIdOf(c);
    await body();
    sessions.require(sessionIdOf(c)).cancel(clientId);
    return undefined;
  });
  mount(app, R.continue, async (c, body) => {
    const clientId = clientIdOf(c);
    await body();
    return continueLastTurn(sessions, sessionIdOf(c), clientId);
  });
  mount(app, R.withdrawPrompt, async (c) => {
    const clientId = clientIdOf(c);
    await sessions.require(sessionIdOf(c)).withdrawPrompt(c.req.param("promptId") ?? "", clientId);
    return undefined;
  });
  mount(app, R.pendingPrompts, (c) => {
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
    return answer;
  });
  return app;
}
