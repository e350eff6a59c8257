// Getting the open session back after something a reconnect cannot fix: reloading it (bounded, so a
// daemon that keeps failing leaves the user a button instead of a loop) or rebuilding it from its saved
// transcript when our cursor is too old to replay.
import { sessionPath } from "./api.js";
import { describe } from "./api-errors.js";
import { api } from "./daemon-connection.js";
import { handleEvent, subscribe } from "./live-events.js";
import { ui } from "./page-elements.js";
import { cards, note, state, view } from "./page-state.js";
import { setConn, showBanner } from "./page-status.js";
import { openSession } from "./session-opening.js";
import { Timeline } from "./timeline.js";

/** At most this many automatic reloads of a session per minute (a daemon that keeps failing stops us). */
const MAX_RECOVERIES_PER_MINUTE = 3;

/**
 * Reloads the open session after something a reconnect cannot fix (daemon restart, id reset). Bounded,
 * so a daemon that keeps failing leaves the user a button instead of a loop.
 * @param {string} why
 */
export async function recover(why) {
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
export async function catchUpFromTranscript() {
  const sessionId = state.sessionId;
  if (!sessionId) return;
  try {
    const res = await api.request("GET", sessionPath(sessionId, "transcript"), undefined, state.clientId);
    if (state.sessionId !== sessionId) return;
    state.timeline = new Timeline();
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
export async function reopen(notice) {
  if (state.sessionId) await openSession(state.sessionId, ui.title.textContent ?? undefined, notice);
}
