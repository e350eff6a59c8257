// The permission requests and questions waiting for the user, shown as cards, and the votes sent from them.
import { questionsOf, voteBody } from "./answers.js";
import { ApiError, sessionPath } from "./api.js";
import { describe, isSessionLost } from "./api-errors.js";
import { api } from "./daemon-connection.js";
import { permissionCard, questionCard } from "./interaction-cards.js";
import { ui } from "./page-elements.js";
import { cards, note, state, updateBusy } from "./page-state.js";
import { announce } from "./page-status.js";
import { recover } from "./session-recovery.js";

/** @typedef {import("./answers.js").PermissionRequest} PermissionRequest */
/** @typedef {import("./answers.js").PermissionOption} PermissionOption */

/**
 * @param {PermissionRequest} request
 * @param {boolean} live
 */
export function addPending(request, live) {
  if (!request?.requestId || cards.has(request.requestId)) return;
  const questions = questionsOf(request);
  /** @param {PermissionOption} option @param {Record<string, string>} [answers] */
  const onVote = (option, answers) => vote(request, option, answers);
  const card =
    questions.length > 0 ? questionCard(request, questions, onVote) : permissionCard(request, onVote);
  cards.set(request.requestId, card);
  ui.pending.append(card);
  updateBusy();
  if (!live) return;
  announce(questions.length > 0 ? "The agent asks you a question." : "The agent asks for your approval.");
  // Move focus to the card unless the user is in the middle of typing a message.
  const typing = document.activeElement === ui.prompt && ui.prompt.value.trim() !== "";
  if (!typing) /** @type {HTMLElement | null} */ (card.querySelector("h3"))?.focus();
  else card.scrollIntoView?.({ block: "nearest" });
}

/** @param {string} requestId */
export function removePending(requestId) {
  const card = cards.get(requestId);
  if (!card) return;
  cards.delete(requestId);
  const hadFocus = card.contains(document.activeElement);
  card.remove();
  if (hadFocus) ui.prompt.focus();
  updateBusy();
}

/**
 * @param {HTMLElement} card
 * @param {string} text
 */
export function setCardStatus(card, text) {
  const line = card.querySelector(".form-error");
  if (line) line.textContent = text;
}

/**
 * @param {PermissionRequest} request
 * @param {PermissionOption} option
 * @param {Record<string, string>} [answers]
 */
async function vote(request, option, answers) {
  const sessionId = state.sessionId;
  if (!sessionId) throw new Error("No session is open.");
  try {
    await api.request(
      "POST",
      sessionPath(sessionId, `permission/${encodeURIComponent(request.requestId)}`),
      voteBody(option, answers),
      state.clientId,
    );
    // The daemon answers 200 only once the answer is durable; the card can go now.
    removePending(request.requestId);
  } catch (error) {
    if (isSessionLost(error)) {
      void recover("the daemon no longer has this session live");
      throw new Error("The session is being reloaded; answer again once its question is back.");
    }
    if (error instanceof ApiError && error.status === 404) {
      // Someone else answered, or the daemon restarted and re-asked under a new id.
      removePending(request.requestId);
      note("notice", "That request was already answered or is no longer waiting.");
      return;
    }
    if (error instanceof ApiError && error.code === "invalid_client_id") {
      void recover("our client registration was lost");
    }
    throw new Error(`Could not send your answer: ${describe(error)}`);
  }
}
