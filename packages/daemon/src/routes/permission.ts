// Votes on permission requests (tool approvals and ask_user_question answers). The mediator judges them
// by policy; these routes only parse the body, check the client id and report the mediator's answer. The
// answer to a question is on disk before the 200 goes out (docs/restore.md "The guarantees"): the vote awaits it.
import { type EmptyResponse, HttpRoutes, type PermissionVoteBody } from "@qwen-daemon/core/protocol";
import { type Context, Hono } from "hono";
import type { z } from "zod";
import { invalidBody } from "../http/errors.js";
import type { JsonObject } from "../http/json-body.js";
import { socketRemoteAddress } from "../http/remote-address.js";
import type { VoteResult } from "../permission/mediator.js";
import { voteDurably } from "../sessions/durable-vote.js";
import type { Sessions } from "../sessions/sessions.js";
import { mount } from "./mount.js";
import { clientDeviceOf, clientIdOf, sessionIdOf } from "./request.js";

export const INVALID_PERMISSION_OUTCOME_ERROR =
  '`outcome` must be `{ outcome: "cancelled" }` or `{ outcome: "selected", optionId: string }`';

/** A vote body the contract refuses: which part is wrong, in the reference daemon's words. */
function refuseVote(_raw: JsonObject, error: z.ZodError): Error {
  if (error.issues.some((issue) => issue.path[0] === "answers")) {
    return invalidBody('`answers` must map question indexes ("0", "1", ...) to strings');
  }
  return invalidBody(INVALID_PERMISSION_OUTCOME_ERROR);
}

/** Who votes on which request (the remote address is the socket's, never a header). */
function voter(c: Context, clientId: string | undefined) {
  const remoteAddress = socketRemoteAddress(c);
  const device = clientDeviceOf(c);
  return {
    requestId: c.req.param("requestId") as string,
    ...(clientId !== undefined ? { clientId } : {}),
    ...(device !== undefined ? { device } : {}),
    ...(remoteAddress !== undefined ? { remoteAddress } : {}),
  };
}

function voteFields(vote: PermissionVoteBody) {
  return { outcome: vote.outcome, ...(vote.answers !== undefined ? { answers: vote.answers } : {}) };
}

/** A vote taken (resolved, or recorded under consensus) answers `{}`; a refusal is thrown for onError. */
function answer(result: VoteResult): EmptyResponse {
  if ("error" in result) throw result.error;
  return {};
}

export function permissionRoutes(sessions: Sessions): Hono {
  const app = new Hono();
  mount(
    app,
    HttpRoutes.vote,
    async (c, body) => {
      const sessionId = sessionIdOf(c);
      const clientId = clientIdOf(c);
      sessions.require(sessionId).assertClient(clientId);
      const { value } = await body();
      return answer(await voteDurably(sessions, { sessionId, ...voter(c, clientId), ...voteFields(value) }));
    },
    { refuse: refuseVote },
  );
  mount(
    app,
    HttpRoutes.legacyVote,
    async (c, body) => {
      const clientId = clientIdOf(c);
      const { value } = await body();
      return answer(await voteDurably(sessions, { ...voter(c, clientId), ...voteFields(value) }));
    },
    { refuse: refuseVote },
  );
  return app;
}
