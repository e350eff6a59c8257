// What the person sends to the open session: a message, a stop, a vote on a question or approval, and
// what each failure means (the daemon is away: pause and keep the draft; the session was lost: reload it;
// the request is gone: drop its card). The controller hands each action the little it needs (ActionHost).

import type { PromptBody } from "@qwen-daemon/core/protocol";
import type { PermissionOption } from "../interactions/answers.js";
import { type Drafts, leftAfterSend } from "../interactions/drafts.js";
import { type Api, ApiError } from "../net/api.js";
import { describe, isSessionLost, isUnreachable } from "../net/api-errors.js";
import { callRoute } from "../net/routes.js";
import { summaryTitle } from "../sessions/session-list.js";
import type { SessionModel } from "./session-model.js";

export type ActionHost = {
  api: Api;
  drafts: Drafts;
  sessionId: string | undefined;
  clientId: string | undefined;
  canAct: boolean;
  model: SessionModel;
  /** The daemon could not be reached. */
  unreachable: (detail: string) => void;
  /** The daemon no longer has the session (or our client): reload it. */
  recover: (restarted: boolean) => void;
  /** A message was accepted. */
  sent: (text: string) => void;
};

/** A card's line once this page's vote is in and others' are still awaited. */
export const VOTE_COUNTED = "Your vote is counted; waiting for the others.";

/** True when the daemon took the message (the caller then clears the box). */
export async function sendPrompt(host: ActionHost, text: string): Promise<boolean> {
  const { sessionId, model } = host;
  if (!text.trim() || !sessionId || !host.canAct) return false;
  const body: PromptBody = { prompt: [{ type: "text", text }] };
  try {
    const res = await callRoute(host.api, "prompt", {
      params: { id: sessionId },
      body,
      clientId: host.clientId,
    });
    if (typeof res.promptId === "string") {
      model.prompts.started(res.promptId);
      // Waiting behind the running turn (or a question): shown at once as queued, with its place in line.
      if (typeof res.queuePosition === "number") model.queued(res.promptId, text, res.queuePosition, true);
    }
    host.drafts.setComposer(sessionId, leftAfterSend(host.drafts.composer(sessionId), text));
    host.sent(text);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.code === "prompt_queue_full") {
      model.note("error", "The agent already has a full queue of messages; try again in a moment.");
    } else if (isUnreachable(error)) {
      host.unreachable(describe(error));
    } else if (isSessionLost(error) || (error instanceof ApiError && error.code === "invalid_client_id")) {
      model.note("error", "This session has to be reloaded first; your message is kept. Send it again then.");
      host.recover(isSessionLost(error));
    } else {
      model.note("error", `Could not send: ${describe(error)}`);
    }
    return false;
  }
}

/** Takes a queued message back; true when the daemon let it go (it had not started). */
export async function withdrawPrompt(host: ActionHost, promptId: string): Promise<boolean> {
  const { sessionId, model } = host;
  if (!sessionId || !host.canAct) return false;
  try {
    await callRoute(host.api, "withdrawPrompt", {
      params: { id: sessionId, promptId },
      clientId: host.clientId,
    });
    model.unqueue(promptId);
    return true;
  } catch (error) {
    if (isUnreachable(error)) host.unreachable(describe(error));
    else if (error instanceof ApiError && error.code === "prompt_running") {
      model.note("notice", "That message has started already; Stop ends it.");
    } else if (error instanceof ApiError && error.status === 404) model.unqueue(promptId);
    else model.note("error", `Could not take the message back: ${describe(error)}`);
    return false;
  }
}

export async function cancelPrompt(host: ActionHost): Promise<void> {
  if (!host.sessionId) return;
  try {
    await callRoute(host.api, "cancel", {
      params: { id: host.sessionId },
      body: {},
      clientId: host.clientId,
    });
  } catch (error) {
    if (isUnreachable(error)) host.unreachable(describe(error));
    else host.model.note("error", `Could not stop the turn: ${describe(error)}`);
  }
}

/** Answers a question or approval; its card shows the vote in flight and any failure. */
export async function sendVote(
  host: ActionHost,
  requestId: string,
  option: PermissionOption,
  answers?: Record<string, string>,
): Promise<void> {
  const { sessionId, model } = host;
  if (!sessionId || !model.interactions.has(requestId) || !host.canAct) return;
  model.setCard(requestId, { sending: true });
  model.votes.set(requestId, answers);
  const outcome = { outcome: "selected" as const, optionId: option.optionId };
  try {
    await callRoute(host.api, "vote", {
      params: { id: sessionId, requestId },
      body: { outcome, ...(answers ? { answers } : {}) },
      clientId: host.clientId,
    });
    if (model.context.people()) {
      // Several people answer (consensus): the 200 counts this vote, the decision is the stream's to tell
      // (permission_resolved), and a vote can be changed until then. The tally, if it came first, stays shown.
      model.setCard(requestId, {
        sending: false,
        status: model.cards.get(requestId)?.status ?? VOTE_COUNTED,
      });
      return;
    }
    // 200 means the answer is durable: the card can go even if the resolved event is still on its way.
    model.resolve(requestId, { outcome, ...(host.clientId ? { voterClientId: host.clientId } : {}) });
  } catch (error) {
    model.votes.delete(requestId);
    if (!model.interactions.has(requestId)) return;
    if (isUnreachable(error)) {
      model.setCard(requestId, {
        sending: false,
        error: "The daemon cannot be reached; your choice is kept.",
      });
      host.unreachable(describe(error));
    } else if (isSessionLost(error)) {
      model.setCard(requestId, {
        sending: false,
        error: "The session is being reloaded; your choice is kept.",
      });
      host.recover(true);
    } else if (error instanceof ApiError && error.status === 404) {
      // Someone else answered, or the daemon re-asked it under a new id: the event stream says which.
      model.remove(requestId);
      model.note("notice", "That request was already answered or is no longer waiting.");
    } else {
      if (error instanceof ApiError && error.code === "invalid_client_id") host.recover(false);
      model.setCard(requestId, { sending: false, error: `Could not send your answer: ${describe(error)}` });
    }
  }
}

/** A session's name from its first message, as the list will say it (a short summary). */
export function firstLine(text: string): string {
  return summaryTitle(text);
}
