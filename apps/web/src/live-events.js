// The open session's events: applying each one (replayed from a load, or live) to the page, and the live
// event stream that delivers them, with what to do when it ends.
import { sessionPath } from "./api.js";
import { api } from "./daemon-connection.js";
import { openEventStream } from "./event-stream.js";
import { cards, note, prompts, state, updateBusy, view } from "./page-state.js";
import { announce, setConn, showBanner } from "./page-status.js";
import { addPending, removePending, setCardStatus } from "./pending-cards.js";
import { catchUpFromTranscript, recover, reopen } from "./session-recovery.js";
import { scheduleListRefresh } from "./session-sidebar.js";
import { askForToken } from "./token-prompt.js";

/** @typedef {import("./event-stream.js").DaemonEvent} DaemonEvent */

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
export function handleEvent(ev, live) {
  const d = ev.data ?? {};
  switch (ev.type) {
    case "session_update":
      view.render(state.timeline.sessionUpdate(d.update, ev.promptId));
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
 * @param {number | undefined} lastEventId
 * @param {string | undefined} epoch
 */
export function subscribe(lastEventId, epoch) {
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
