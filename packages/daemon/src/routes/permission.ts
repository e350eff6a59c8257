// Votes on permission requests (tool approvals and ask_user_question answers). The mediator judges them
// by policy; these routes only parse the body, check the client id and report the mediator's answer. The
// answer to a question is on disk before the 200 goes out (docs/restore.md "The guarantees"): the vote awaits it.
import { HttpRoutes, PermissionVoteBody } from "@qwen-daemon/core/protocol";
import { type Context, Hono } from "hono";
import { invalidBody } from "../http/errors.js";
import { socketRemoteAddress } from "../http/remote-address.js";
import type { VoteResult } from "../permission/mediator.js";
import { voteDurably } from "../sessions/durable-vote.js";
import type { Sessions } from "../sessions/sessions.js";
import { clientIdOf, jsonBody, sessionIdOf } from "./request.js";

export const INVALID_PERMISSION_OUTCOME_ERROR =
  '`outcome` must be `{ outcome: "cancelled" }` or `{ outcome: "selected", optionId: string }`';

async function parseVote(c: Context): Promise<PermissionVoteBody> {
  const body = await jsonBody(c);
  const parsed = PermissionVoteBody.safeParse(body);
  if (parsed.success) return parsed.data;
  if (parsed.error.issues.some((issue) => issue.path[0] === "answers")) {
    throw invalidBody('`answers` must map question indexes ("0", "1", ...) to strings');
  }
  throw invalidBody(INVALID_PERMISSION_OUTCOME_ERROR);
}

/** Who votes on which request (the remote address is the socket's, never a header). */
function voter(c: Context, clientId: string | undefined) {
  const remoteAddress = socketRemoteAddress(c);
  return {
    requestId: c.req.param("requestId") as string,
    ...(clientId !== undefined ? { clientId } : {}),
    ...(remoteAddress !== undefined ? { remoteAddress } : {}),
  };
}

function voteFields(vote: PermissionVoteBody) {
  return { outcome: vote.outcome, ...(vote.answers !== undefined ? { answers: vote.answers } : {}) };
}

/** `200 {}` for a vote taken (resolved, or recorded under consensus); a refusal is thrown for onError. */
function answer(c: Context, result: VoteResult): Response {
  if ("error" in result) throw result.error;
  return c.json({}, 200);
}

export function permissionRoutes(sessions: Sessions): Hono {
  return new Hono()
    .post(HttpRoutes.vote.path, async (c) => {
      const sessionId = sessionIdOf(c);
      const clientId = clientIdOf(c);
      sessions.require(sessionId).assertClient(clientId);
      const vote = await parseVote(c);
      return answer(
        c,
        await voteDurably(sessions, { sessionId, ...voter(c, clientId), ...voteFields(vote) }),
      );
    })
    .post(HttpRoutes.legacyVote.path, async (c) => {
      const clientId = clientIdOf(c);
      const vote = await parseVote(c);
      return answer(c, await voteDurably(sessions, { ...voter(c, clientId), ...voteFields(vote) }));
    });
}
