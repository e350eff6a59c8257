// The sidebar: the workspace's sessions (paged, refreshed after events that change them) and the
// show/hide toggle that narrow screens use.
import { ApiError } from "./api.js";
import { describe } from "./api-errors.js";
import { api } from "./daemon-connection.js";
import { ui } from "./page-elements.js";
import { state } from "./page-state.js";
import { sessionTitle } from "./session-list.js";
import { SessionListView } from "./session-list-view.js";
import { openSession } from "./session-opening.js";
import { askForToken } from "./token-prompt.js";

/** @typedef {import("./session-list.js").SessionSummary} SessionSummary */

const SESSION_PAGE = 30;

export const sessionList = new SessionListView(ui.sessions, (id, title) => void openSession(id, title));
export const narrow = window.matchMedia("(max-width: 759px)");

/** @param {boolean} show */
export function showSessionPanel(show) {
  ui.sessionPanel.hidden = !show;
  ui.toggleSessions.setAttribute("aria-expanded", String(show));
  ui.toggleSessions.textContent = show ? "Hide" : "Show";
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let refreshTimer;
export function scheduleListRefresh() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => void refreshSessions(), 400);
}

/** @param {boolean} [more]  append the next page instead of reloading the first */
export async function refreshSessions(more = false) {
  if (!state.workspace) return;
  const cursor = more && state.nextCursor ? `&cursor=${encodeURIComponent(state.nextCursor)}` : "";
  try {
    const page = await api.request(
      "GET",
      `/workspace/${encodeURIComponent(state.workspace)}/sessions?size=${SESSION_PAGE}${cursor}`,
    );
    /** @type {SessionSummary[]} */
    const sessions = sessionList.render(page.sessions ?? [], more);
    state.nextCursor = page.nextCursor;
    ui.sessionsEmpty.hidden = ui.sessions.children.length > 0;
    ui.moreSessions.hidden = !state.nextCursor;
    sessionList.markCurrent(state.sessionId);
    const current = sessions.find((s) => s.sessionId === state.sessionId);
    if (current?.displayName) {
      ui.title.textContent = sessionTitle(current);
      document.title = `${ui.title.textContent} · qwen serve`;
    }
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return askForToken();
    ui.sessionsEmpty.hidden = false;
    ui.sessionsEmpty.textContent = `Could not list sessions: ${describe(error)}`;
  }
}
