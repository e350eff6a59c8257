// Browser client for `qwen serve`: the page the daemon serves at `/`. Plain ES modules, no framework and
// no bundler. This file is the entry point: it wires DOM events to the page's modules and boots. The
// page's concerns live beside it (page-state, live-events, pending-cards, session-opening,
// session-recovery, session-sidebar, prompt-box, token-prompt), over pure modules (SSE parsing,
// reconnects, answers, the conversation model).
//
// Those page modules import each other in a cycle (opening a session subscribes to its events; an event
// stream that ends badly reopens the session). That is safe in ES modules because the cycle is between
// function declarations only: no module calls into another while it is being evaluated.
import { ApiError } from "./api.js";
import { describe } from "./api-errors.js";
import { api } from "./daemon-connection.js";
import { ui } from "./page-elements.js";
import { state } from "./page-state.js";
import { setConn, showBanner } from "./page-status.js";
import { cancelPrompt, sendPrompt } from "./prompt-box.js";
import { createSession, detach } from "./session-opening.js";
import { refreshSessions, showSessionPanel } from "./session-sidebar.js";
import { askForToken, useSubmittedToken } from "./token-prompt.js";

const LIST_POLL_MS = 15_000;

ui.auth.addEventListener("submit", useSubmittedToken);
ui.newSession.addEventListener("click", () => void createSession());
ui.moreSessions.addEventListener("click", () => void refreshSessions(true));
ui.toggleSessions.addEventListener("click", () => showSessionPanel(ui.sessionPanel.hidden));
ui.form.addEventListener("submit", (e) => {
  e.preventDefault();
  void sendPrompt();
});
ui.prompt.addEventListener("keydown", (e) => {
  if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
    e.preventDefault();
    void sendPrompt();
  }
});
ui.cancel.addEventListener("click", () => void cancelPrompt());
window.addEventListener("pagehide", () => {
  state.stream?.close();
  if (state.sessionId) detach(state.sessionId, state.clientId, true);
});
setInterval(() => {
  if (document.visibilityState === "visible") void refreshSessions();
}, LIST_POLL_MS);

async function boot() {
  try {
    const caps = await api.request("GET", "/capabilities");
    state.workspace = caps.workspaceCwd;
    ui.workspace.textContent = caps.workspaceCwd ?? "";
    setConn("connected", "ok");
    await refreshSessions();
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return askForToken();
    setConn("offline", "bad");
    showBanner(`Cannot reach the daemon: ${describe(error)}`, { label: "Retry", run: () => void boot() });
  }
}

void boot();
