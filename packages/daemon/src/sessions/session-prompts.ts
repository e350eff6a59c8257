// Prompts on a live session: admitting a client's prompt to its queue (journaled first), cancelling the running one, and
// continuing an interrupted turn when the child says it can.

import type { ContentBlock } from "@qwen-daemon/core/protocol";
import {
  CONTINUE_LAST_TURN_META_KEY,
  PROMPT_ID_META_KEY,
  stripBlockMeta,
  stripDaemonMeta,
} from "@qwen-daemon/core/protocol";
import { sessionNotFound } from "../http/errors.js";
import { httpErrorFromChild, isMethodNotFound } from "./child-errors.js";
import { journalAccepted, journalClosed } from "./prompt-journaling.js";
import { isIdle } from "./restore-admission.js";
import type { SessionContext } from "./session-context.js";
import { assertClient, requireSession } from "./session-lookup.js";

export type PromptAccepted = { promptId: string; lastEventId: number; eventEpoch: string };

export type ContinueResult = {
  accepted: boolean;
  interruption: string;
  promptId?: string;
  lastEventId: number;
  eventEpoch: string;
};

/**
 * Admits a client prompt; daemon-only `_meta` keys are stripped. The prompt is journaled (fsynced) before it is
 * queued and the route answers 202, so a crash before the agent starts it cannot lose it silently: a later load
 * reports it as never started (prompt-journaling.ts). The queue's room is checked first (503 without writing
 * anything), and again after the write; a prompt refused then, or whose session ended meanwhile, is withdrawn.
 */
export async function submitPrompt(
  ctx: SessionContext,
  sessionId: string,
  input: { prompt: ContentBlock[]; deadlineMs?: number | undefined; meta?: unknown },
  clientId: string | undefined,
): Promise<PromptAccepted> {
  const session = requireSession(ctx.registry, sessionId);
  assertClient(session, clientId);
  session.queue.assertRoom();
  const promptId = ctx.newId();
  const blocks = input.prompt.map((block) => stripBlockMeta(block));
  const text = promptText(blocks);
  await journalAccepted(ctx, session, { promptId, text, originatorClientId: clientId });
  // The echo and everything after it come after this id.
  const lastEventId = session.bus.lastEventId;
  try {
    if (ctx.registry.get(sessionId) !== session) throw sessionNotFound(sessionId);
    session.queue.admit({
      promptId,
      kind: "user",
      text,
      prompt: blocks,
      meta: { ...stripDaemonMeta(input.meta), [PROMPT_ID_META_KEY]: promptId },
      originatorClientId: clientId,
      deadlineMs: input.deadlineMs,
    });
  } catch (error) {
    await journalClosed(ctx, session, promptId, "withdrawn");
    throw error;
  }
  session.touch(ctx.options.clock.now());
  return { promptId, lastEventId, eventEpoch: session.bus.epoch };
}

/** Cancels the running prompt, if any (204 either way). */
export function cancelPrompt(ctx: SessionContext, sessionId: string, clientId: string | undefined): void {
  const session = requireSession(ctx.registry, sessionId);
  assertClient(session, clientId);
  session.queue.cancelActive();
  session.touch(ctx.options.clock.now());
}

/** Asks the child whether an interrupted turn can continue; if so runs it as a tracked prompt. */
export async function continueLastTurn(
  ctx: SessionContext,
  sessionId: string,
  clientId: string | undefined,
): Promise<ContinueResult> {
  const session = requireSession(ctx.registry, sessionId);
  assertClient(session, clientId);
  const refuse = (interruption: string): ContinueResult => ({
    accepted: false,
    interruption,
    lastEventId: session.bus.lastEventId,
    eventEpoch: session.bus.epoch,
  });
  if (!isIdle(session.activity)) return refuse("none");
  // A load or resume may be reloading the session in the child right now: ask once it has settled, so the
  // child decides on the reloaded history (and a child that cannot answer mid-reload is never asked then).
  for (let inFlight = ctx.registry.opening(sessionId); inFlight !== undefined; ) {
    await inFlight.then(noop, noop);
    inFlight = ctx.registry.opening(sessionId);
  }
  if (session.phase !== "live") throw sessionNotFound(sessionId);
  if (!isIdle(session.activity)) return refuse("none");
  let decision: { accepted: boolean; interruption: string };
  try {
    decision = await session.child.continueLastTurn(sessionId);
  } catch (error) {
    if (isMethodNotFound(error)) return refuse("none");
    throw httpErrorFromChild(error, sessionId);
  }
  const interruption = typeof decision.interruption === "string" ? decision.interruption : "none";
  if (decision.accepted !== true || session.phase !== "live" || !isIdle(session.activity)) {
    return refuse(interruption);
  }
  const lastEventId = session.bus.lastEventId;
  const promptId = ctx.newId();
  session.queue.admit({
    promptId,
    kind: "continue",
    text: "",
    prompt: [],
    meta: { [CONTINUE_LAST_TURN_META_KEY]: true, [PROMPT_ID_META_KEY]: promptId },
    originatorClientId: clientId,
  });
  return { accepted: true, interruption, promptId, lastEventId, eventEpoch: session.bus.epoch };
}

function promptText(blocks: readonly ContentBlock[]): string {
  return blocks.flatMap((b) => (b.type === "text" && typeof b.text === "string" ? [b.text] : [])).join("\n");
}

function noop(): void {}
