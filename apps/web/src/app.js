// Browser client for `qwen serve`: the page the daemon serves at `/`. Plain ES modules, no framework and
// no bundler. This file is the wiring: DOM events in, daemon calls out. The logic it leans on (SSE
// parsing, reconnects, answers, the conversation model) lives in pure modules beside it.
import { ActivePrompts } from "./active-prompts.js";
import { questionsOf, voteBody } from "./answers.js";
import { ApiError, createApi, sessionPath, tokenFromHash } from "./api.js";
import { ClientIds, freshClientIdHint } from "./client-ids.js";
import { byId } from "./dom.js";
import { openEventStream } from "./event-stream.js";
import { permissionCard, questionCard } from "./interaction-cards.js";
import { sessionTitle } from "./session-list.js";
import { SessionListView } from "./session-list-view.js";
import { Timeline } from "./timeline.js";
import { TimelineView } from "./timeline-view.js";

/** @typedef {import("./event-stream.js").DaemonEvent} DaemonEvent */
/** @typedef {import("./answers.js").PermissionRequest} PermissionRequest */
/** @typedef {import("./answers.js").PermissionOption} PermissionOption */
/** @typedef {import("./session-list.js").SessionSummary} SessionSummary */

const SESSION_PAGE = 30;
const LIST_POLL_MS = 15_000;
/** At most this many automatic reloads of a session per minute (a daemon that keeps failing stops us). */
const MAX_RECOVERIES_PER_MINUTE = 3;

const token = tokenFromHash(location.hash);
const api = createApi({ fetch: window.fetch.bind(window), token });
const clientIds = new ClientIds(safeSessionStorage());

const ui = {
  conn: byId("conn"),
  workspace: byId("workspace"),
  auth: /** @type {HTMLFormElement} */ (byId("auth")),
  tokenInput: /** @type {HTMLInputElement} */ (byId("token-input")),
  sessions: /** @type {HTMLUListElement} */ (byId("sessions")),
  sessionsEmpty: byId("sessions-empty"),
  moreSessions: /** @type {HTMLButtonElement} */ (byId("more-sessions")),
  newSession: /** @type {HTMLButtonElement} */ (byId("new-session")),
  toggleSessions: /** @type {HTMLButtonElement} */ (byId("toggle-sessions")),
  sessionPanel: byId("session-panel"),
  title: byId("session-title"),
  hint: byId("session-hint"),
  banner: byId("banner"),
  bannerText: byId("banner-text"),
  bannerAction: /** @type {HTMLButtonElement} */ (byId("banner-action")),
  log: /** @type {HTMLOListElement} */ (byId("log")),
  working: byId("working"),
  pending: byId("pending"),
  form: /** @type {HTMLFormElement} */ (byId("prompt-form")),
  prompt: /** @type {HTMLTextAreaElement} */ (byId("prompt")),
  send: /** @type {HTMLButtonElement} */ (byId("send")),
  cancel: /** @type {HTMLButtonElement} */ (byId("cancel")),
  announce: byId("announce"),
};

const state = {
  /** @type {string | undefined} */ workspace: undefined,
  /** @type {string | undefined} */ sessionId: undefined,
  /** @type {string | undefined} */ clientId: undefined,
  /** @type {ReturnType<typeof openEventStream> | undefined} */ stream: undefined,
  /** The session's agent process died: do not reload it behind the user's back. */
  dead: false,
  /** @type {number[]} */ recoveries: [],
  /** @type {string | undefined} */ nextCursor: undefined,
  /** @type {Promise<void> | undefined} */ opening: undefined,
  /** @type {string | undefined} */ openingId: undefined,
};

let timeline = new Timeline();
const sessionList = new SessionListView(ui.sessions, (id, title) => void openSession(id, title));
const view = new TimelineView(ui.log);
const prompts = new ActivePrompts();
/** @type {Map<string, HTMLElement>} */
const cards = new Map();

// ---------------------------------------------------------------- small UI helpers

function safeSessionStorage() {
  try {
    return window.sessionStorage;
  } catch {
    // Storage can be disabled (privacy settings); we then just re-attach under a new id after a reload.
    return undefined;
  }
}

/**
 * The daemon answered "no such session": it restarted (or the session was closed) since we loaded it.
 * @param {unknown} error
 */
function isSessionLost(error) {
  return error instanceof ApiError && error.status === 404 && error.code === "session_not_found";
}

/**
 * @param {string} text
 * @param {"ok" | "live" | "warn" | "bad"} tone
 */
function setConn(text, tone) {
  ui.conn.textContent = text;
  ui.conn.dataset.tone = tone;
}

/** @param {string} text */
function announce(text) {
  ui.announce.textContent = "";
  // A fresh text node after a tick makes screen readers announce repeated messages too.
  setTimeout(() => {
    ui.announce.textContent = text;
  }, 50);
}

/**
 * @param {string} text
 * @param {{ label: string, run: () => void } | undefined} [action]
 */
function showBanner(text, action) {
  ui.banner.hidden = false;
  ui.bannerText.textContent = text;
  ui.bannerAction.hidden = !action;
  ui.bannerAction.textContent = action?.label ?? "";
  ui.bannerAction.onclick = action
    ? () => {
        hideBanner();
        action.run();
      }
    : null;
}

function hideBanner() {
  ui.banner.hidden = true;
}

/** @param {unknown} error */
function describe(error) {
  if (error instanceof ApiError) return error.code ? `${error.message} (${error.code})` : error.message;
  return error instanceof Error ? error.message : String(error);
}

/**
 * @param {"notice" | "error"} kind
 * @param {string} text
 */
function note(kind, text) {
  view.render(timeline.note(kind, text));
}

function updateBusy() {
  const open = state.sessionId !== undefined && !state.dead;
  ui.prompt.disabled = !open;
  ui.send.disabled = !open;
  ui.cancel.disabled = !open || !prompts.busy;
  // The spinner is noise while the agent waits on the user.
  ui.working.hidden = !open || !prompts.busy || cards.size > 0;
}

const narrow = window.matchMedia("(max-width: 759px)");

/** @param {boolean} show */
function showSessionPanel(show) {
  ui.sessionPanel.hidden = !show;
  ui.toggleSessions.setAttribute("aria-expanded", String(show));
  ui.toggleSessions.textContent = show ? "Hide" : "Show";
}

// ---------------------------------------------------------------- waiting interactions

/**
 * @param {PermissionRequest} request
 * @param {boolean} live
 */
function addPending(request, live) {
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
function removePending(requestId) {
  const card = cards.get(requestId);
  if (!card) return;
  cards.delete(requestId);
  const hadFocus = card.contains(document.activeElement);
  card.remove();
  if (hadFocus) ui.prompt.focus();
  updateBusy();
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

// ---------------------------------------------------------------- events

const REFRESH_LIST_ON = new Set([
  "permission_request",
  "permission_resolved",
  "turn_complete",
  "turn_error",
  "session_died",
  "session_closed",
]);

/**
 * Applies one daemon event, replayed (from a load) or live.
 * @param {DaemonEvent} ev
 * @param {boolean} live
 */
function handleEvent(ev, live) {
  const d = ev.data ?? {};
  switch (ev.type) {
    case "session_update":
      view.render(timeline.sessionUpdate(d.update, ev.promptId));
      break;
    case "permission_request":
      addPending(d, live);
      break;
    case "permission_resolved":
    case "permission_already_resolved":
      removePending(d.requestId);
      break;
    case "permission_partial_vote": {
      const card = cards.get(d.requestId);
      card?.classList.remove("sent");
      if (card) setCardStatus(card, `${d.votesReceived} of ${d.votesNeeded} votes so far.`);
      break;
    }
    case "permission_forbidden": {
      const card = cards.get(d.requestId);
      if (card) setCardStatus(card, `Your vote was not accepted (${d.reason ?? "forbidden"}).`);
      break;
    }
    case "turn_complete":
      if (d.stopReason && d.stopReason !== "end_turn") note("notice", `Turn ended: ${d.stopReason}.`);
      if (live) announce("The agent finished.");
      break;
    case "turn_error":
      note("error", `The turn failed: ${d.message ?? "unknown error"}${d.code ? ` (${d.code})` : ""}`);
      if (live) announce("The turn failed.");
      break;
    case "prompt_cancelled":
      note("notice", "Stopped.");
      break;
    case "session_died":
      state.dead = true;
      // Nothing can answer these any more; a reload asks again what is still open.
      for (const requestId of [...cards.keys()]) removePending(requestId);
      note("error", `The agent process for this session stopped${d.reason ? ` (${d.reason})` : ""}.`);
      showBanner(
        "The agent process stopped. Reloading the session starts a new one from the saved history.",
        {
          label: "Reload session",
          run: () => void reopen(),
        },
      );
      break;
    case "session_closed":
      state.dead = true;
      for (const requestId of [...cards.keys()]) removePending(requestId);
      note("notice", "This session was closed.");
      break;
    default:
      break;
  }
  prompts.observe(ev);
  updateBusy();
  if (live && REFRESH_LIST_ON.has(ev.type)) scheduleListRefresh();
}

/**
 * @param {HTMLElement} card
 * @param {string} text
 */
function setCardStatus(card, text) {
  const line = card.querySelector(".form-error");
  if (line) line.textContent = text;
}

/**
 * @param {number | undefined} lastEventId
 * @param {string | undefined} epoch
 */
function subscribe(lastEventId, epoch) {
  state.stream?.close();
  const sessionId = /** @type {string} */ (state.sessionId);
  const stream = openEventStream({
    url: sessionPath(sessionId, "events"),
    fetch: window.fetch.bind(window),
    headers: () => api.headers(state.clientId),
    ...(lastEventId !== undefined ? { lastEventId } : {}),
    ...(epoch !== undefined ? { epoch } : {}),
    onEvent: (ev) => {
      if (state.stream === stream) handleEvent(ev, true);
    },
    onState: (s, detail) => {
      if (state.stream !== stream) return;
      if (s === "live") setConn("live", "live");
      else if (s === "connecting") setConn("connecting…", "warn");
      else setConn(detail ? `reconnecting (${detail})` : "reconnecting…", "warn");
    },
    onEnd: (end) => {
      if (state.stream !== stream) return;
      state.stream = undefined;
      if (end.kind === "closed") setConn("session closed", "warn");
      else if (end.kind === "unauthorized") askForToken();
      else if (end.kind === "gone" && state.dead) setConn("session ended", "bad");
      else if (end.kind === "gone") void recover("the daemon no longer has this session live");
      else if (end.kind === "resync" && end.reason === "ring_evicted") void catchUpFromTranscript();
      else if (end.kind === "resync") void recover(`the event stream asked for a resync (${end.reason})`);
      else {
        setConn("disconnected", "bad");
        showBanner(`Live updates stopped: ${end.reason ?? end.status ?? "refused"}.`, {
          label: "Reconnect",
          run: () => void reopen(),
        });
      }
    },
  });
  state.stream = stream;
}

/**
 * Reloads the open session after something a reconnect cannot fix (daemon restart, id reset). Bounded,
 * so a daemon that keeps failing leaves the user a button instead of a loop.
 * @param {string} why
 */
async function recover(why) {
  const now = Date.now();
  state.recoveries = state.recoveries.filter((t) => now - t < 60_000);
  if (state.recoveries.length >= MAX_RECOVERIES_PER_MINUTE) {
    setConn("disconnected", "bad");
    showBanner(`Lost the session's live updates (${why}).`, {
      label: "Reload session",
      run: () => void reopen(),
    });
    return;
  }
  state.recoveries.push(now);
  setConn("reloading…", "warn");
  await reopen(`Reloaded the session: ${why}.`);
}

/**
 * Our cursor fell out of the daemon's event ring (a long absence, or a live session whose load-time replay
 * is older than the ring): a reload would hand back the same cursor, so rebuild from the saved transcript
 * and follow from now. Without a cursor the daemon sends the pending requests first, so no card is lost.
 */
async function catchUpFromTranscript() {
  const sessionId = state.sessionId;
  if (!sessionId) return;
  try {
    const res = await api.request("GET", sessionPath(sessionId, "transcript"), undefined, state.clientId);
    if (state.sessionId !== sessionId) return;
    timeline = new Timeline();
    view.clear();
    for (const card of cards.values()) card.remove();
    cards.clear();
    for (const ev of res.events ?? []) handleEvent(ev, false);
    note("notice", "Missed live updates were too old to replay; showing the saved history.");
    subscribe(undefined, undefined);
  } catch (error) {
    await recover(`catching up from the transcript failed: ${describe(error)}`);
  }
}

/** @param {string} [notice]  said at the end of the reloaded conversation (the reload clears the log) */
async function reopen(notice) {
  if (state.sessionId) await openSession(state.sessionId, ui.title.textContent ?? undefined, notice);
}

// ---------------------------------------------------------------- sessions

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
  timeline = new Timeline();
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
function openSession(sessionId, title, notice) {
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
function detach(sessionId, clientId, leaving) {
  if (!clientId) return;
  fetch(sessionPath(sessionId, "detach"), {
    method: "POST",
    headers: { ...api.headers(clientId), "content-type": "application/json" },
    body: "{}",
    keepalive: leaving,
  }).catch((error) => console.warn(`qwen web: detaching from ${sessionId} failed`, error));
}

async function createSession() {
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

/** @type {ReturnType<typeof setTimeout> | undefined} */
let refreshTimer;
function scheduleListRefresh() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => void refreshSessions(), 400);
}

/** @param {boolean} [more]  append the next page instead of reloading the first */
async function refreshSessions(more = false) {
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

// ---------------------------------------------------------------- prompt box

async function sendPrompt() {
  const text = ui.prompt.value.trim();
  const sessionId = state.sessionId;
  if (!text || !sessionId) return;
  ui.prompt.value = "";
  ui.send.disabled = true;
  try {
    const res = await api.request(
      "POST",
      sessionPath(sessionId, "prompt"),
      { prompt: [{ type: "text", text }] },
      state.clientId,
    );
    if (typeof res.promptId === "string") prompts.started(res.promptId);
  } catch (error) {
    ui.prompt.value = text;
    if (error instanceof ApiError && error.code === "prompt_queue_full") {
      note("error", "The agent already has a full queue of messages; try again in a moment.");
    } else if (isSessionLost(error)) {
      note(
        "error",
        "The daemon no longer has this session live; reloading it. Send your message again then.",
      );
      void recover("the daemon no longer has this session live");
    } else if (error instanceof ApiError && error.code === "invalid_client_id") {
      note(
        "error",
        "This tab's connection to the session was lost; reloading it. Send your message again then.",
      );
      void recover("our client registration was lost");
    } else {
      note("error", `Could not send: ${describe(error)}`);
    }
  } finally {
    updateBusy();
  }
}

async function cancelPrompt() {
  if (!state.sessionId) return;
  ui.cancel.disabled = true;
  try {
    await api.request("POST", sessionPath(state.sessionId, "cancel"), {}, state.clientId);
  } catch (error) {
    note("error", `Could not stop the turn: ${describe(error)}`);
    updateBusy();
  }
}

// ---------------------------------------------------------------- auth

function askForToken() {
  setConn("token needed", "bad");
  ui.auth.hidden = false;
  ui.tokenInput.focus();
}

ui.auth.addEventListener("submit", (e) => {
  e.preventDefault();
  const value = ui.tokenInput.value.trim();
  if (!value) return;
  // The fragment never reaches the server's logs; reloading re-reads it.
  location.hash = `token=${encodeURIComponent(value)}`;
  location.reload();
});

// ---------------------------------------------------------------- wiring

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
