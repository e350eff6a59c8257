// POST /session: a new session on the workspace's child. The default ("single") scope shares one session
// among clients, so concurrent default creates wait for the one in progress instead of making two.

import type { SessionScope } from "@qwen-daemon/core/protocol";
import { REQUESTED_SESSION_ID_META_KEY } from "@qwen-daemon/core/protocol";
import { sessionIdConflict } from "../http/errors.js";
import { httpErrorFromChild } from "./child-errors.js";
import type { LiveSession } from "./live-session.js";
import { newLiveSession } from "./new-live-session.js";
import { type AttachResult, attachClient } from "./session-clients.js";
import type { SessionContext } from "./session-context.js";

export type { SessionScope } from "@qwen-daemon/core/protocol";

/** A create the route has checked: the workspace resolved, the scope defaulted, the id well formed. */
export type CreateRequest = { cwd: string; scope: SessionScope; sessionId?: string | undefined };

/** The service's memory of a "single"-scope create in progress. */
export type DefaultCreation = { creating: Promise<LiveSession> | undefined };

export async function createSession(
  ctx: SessionContext,
  defaultCreation: DefaultCreation,
  request: CreateRequest,
  requestedClientId: string | undefined,
): Promise<AttachResult> {
  const { clock } = ctx.options;
  const { cwd, scope, sessionId: requestedId } = request;
  if (requestedId !== undefined) {
    if (ctx.registry.isTaken(requestedId) || (await ctx.store.get(cwd, requestedId)) !== undefined) {
      throw sessionIdConflict(requestedId);
    }
    return attachClient(await startSession(ctx, cwd, requestedId, false), requestedClientId, true, clock);
  }
  if (scope === "thread")
    return attachClient(await startSession(ctx, cwd, undefined, false), requestedClientId, true, clock);
  const existing = defaultSession(ctx);
  if (existing !== undefined) return attachClient(existing, requestedClientId, false, clock);
  const creating = defaultCreation.creating;
  if (creating !== undefined) return attachClient(await creating, requestedClientId, false, clock);
  const created = startSession(ctx, cwd, undefined, true);
  defaultCreation.creating = created;
  try {
    return attachClient(await created, requestedClientId, true, clock);
  } finally {
    defaultCreation.creating = undefined;
  }
}

async function startSession(
  ctx: SessionContext,
  cwd: string,
  requestedId: string | undefined,
  makeDefault: boolean,
): Promise<LiveSession> {
  const release = ctx.registry.reserve();
  try {
    const child = await ctx.children.ensure();
    let response: { sessionId: string };
    try {
      response = await child.newSession(
        cwd,
        requestedId !== undefined ? { [REQUESTED_SESSION_ID_META_KEY]: requestedId } : undefined,
      );
    } catch (error) {
      throw httpErrorFromChild(error);
    }
    if (requestedId !== undefined && response.sessionId !== requestedId) {
      ctx.options.log(
        `qwen serve: agent ignored the requested session id ${requestedId} and created ${response.sessionId}`,
      );
    }
    if (ctx.registry.isTaken(response.sessionId)) {
      throw sessionIdConflict(response.sessionId);
    }
    const session = newLiveSession(ctx, response.sessionId, cwd, child);
    ctx.registry.promote(session);
    if (makeDefault) ctx.registry.defaultSessionId = session.sessionId;
    return session;
  } finally {
    release();
  }
}

function defaultSession(ctx: SessionContext): LiveSession | undefined {
  const id = ctx.registry.defaultSessionId;
  return id === undefined ? undefined : ctx.registry.get(id);
}
