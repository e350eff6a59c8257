// Opening sessions: creating one, loading one from the list (one load at a time), showing what the
// daemon answered, and detaching from the session this tab leaves.
import { ApiError, sessionPath } from "./api.js";
import { describe } from "./api-errors.js";
import { freshClientIdHint } from "./client-ids.js";
import { api, clientIds } from "./daemon-connection.js";
import { handleEvent, subscribe } from "./live-events.js";
import { ui } from "./page-elements.js";
import { cards, note, prompts, state, updateBusy, view } from "./page-state.js";
import { hideBanner, setConn, showBanner } from "./page-status.js";
import {
  narrow,
  refreshSessions,
  scheduleListRefresh,
  sessionList,
  showSessionPanel,
} from "./session-sidebar.js";
import { Timeline } from "./timeline.js";
import { askForToken } from "./token-prompt.js";

/**
 * Shows a session from a create/load/resume response and starts its live events.
 * @param {any} res
 * @param {string} title
 */
function enterSession(res, title) {
  state.stream?.close();
  state.stream = undefined;
  if (state.sessionId && state.sessionId !== res.sessionId) detach(state.sessionId, state.clientId, false);
  state.sessionId = res.sessionId;
  state.clientId = res.clientId;
  state.dead = false;
  clientIds.set(res.sessionId, res.clientId);
  state.timeline = new Timeline();
  view.clear();
  for (const card of cards.values()) card.remove();
  cards.clear();
  hideBanner();
  prompts.reset(res.hasActivePrompt === true);
  for (const ev of res.compactedReplay ?? []) handleEvent(ev, false);
  ui.title.textContent = title;
  ui.hint.hidden = true;
  document.title = `${title} · qwen serve`;
  if (narrow.matches) showSessionPanel(false);
  // Resume right after what the response covered; a brand-new session has seen nothing yet (cursor 0).
  subscribe(typeof res.lastEventId === "number" ? res.lastEventId : 0, res.eventEpoch);
  sessionList.markCurrent(state.sessionId);
  updateBusy();
}

/**
 * @param {string} sessionId
 * @param {string} [title]
 * @param {string} [notice]  a line to add after the loaded history (why it was reloaded)
 */
export function openSession(sessionId, title, notice) {
  // One load at a time: a double click or a recovery racing a click must not attach twice; a click on
  // another session waits for the load in flight, then wins.
  if (state.opening && state.openingId === sessionId) return state.opening;
  const previous = state.opening;
  /** @type {Promise<void> | undefined} */
  let opening;
  opening = (async () => {
    await previous;
    setConn("loading…", "warn");
    try {
      const hint = clientIds.get(sessionId) ?? freshClientIdHint((b) => crypto.getRandomValues(b));
      const res = await api.request("POST", sessionPath(sessionId, "load"), {}, hint);
      enterSession(res, title ?? `Session ${sessionId.slice(0, 8)}`);
      if (notice) note("notice", notice);
      scheduleListRefresh();
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return askForToken();
      setConn("error", "bad");
      showBanner(`Could not open the session: ${describe(error)}`, {
        label: "Try again",
        run: () => void openSession(sessionId, title, notice),
      });
    } finally {
      if (state.opening === opening) {
        state.opening = undefined;
        state.openingId = undefined;
      }
    }
  })();
  state.opening = opening;
  state.openingId = sessionId;
  return opening;
}

/**
 * Tells the daemon this tab stopped watching a session (it then no longer counts us as attached, which
 * matters for consensus votes). Best effort: a failure only leaves a stale attachment, so it is logged.
 * @param {string} sessionId
 * @param {string | undefined} clientId
 * @param {boolean} leaving  the page is going away: the request must outlive it
 */
export function detach(sessionId, clientId, leaving) {
  if (!clientId) return;
  fetch(sessionPath(sessionId, "detach"), {
    method: "POST",
    headers: { ...api.headers(clientId), "content-type": "application/json" },
    body: "{}",
    keepalive: leaving,
  }).catch((error) => console.warn(`qwen web: detaching from ${sessionId} failed`, error));
}

export async function createSession() {
  ui.newSession.disabled = true;
  try {
    const res = await api.request("POST", "/session", { sessionScope: "thread" });
    enterSession(res, "New session");
    ui.prompt.focus();
    await refreshSessions();
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return askForToken();
    showBanner(`Could not create a session: ${describe(error)}`);
  } finally {
    ui.newSession.disabled = false;
  }
}
