// The open session as this tab sees it: which session and client id, its live event stream, its
// conversation, the cards waiting for the user and its running prompts; plus the two ways the page
// reflects that state (a note in the conversation, the busy/enabled state of the prompt box).
import { ActivePrompts } from "./active-prompts.js";
import { ui } from "./page-elements.js";
import { Timeline } from "./timeline.js";
import { TimelineView } from "./timeline-view.js";

export const state = {
  /** @type {string | undefined} */ workspace: undefined,
  /** @type {string | undefined} */ sessionId: undefined,
  /** @type {string | undefined} */ clientId: undefined,
  /** @type {ReturnType<typeof import("./event-stream.js").openEventStream> | undefined} */ stream: undefined,
  /** The session's agent process died: do not reload it behind the user's back. */
  dead: false,
  /** @type {number[]} */ recoveries: [],
  /** @type {string | undefined} */ nextCursor: undefined,
  /** @type {Promise<void> | undefined} */ opening: undefined,
  /** @type {string | undefined} */ openingId: undefined,
  /** The open session's conversation; replaced whenever the session is (re)loaded. */
  timeline: new Timeline(),
};

export const view = new TimelineView(ui.log);
export const prompts = new ActivePrompts();
/** The cards waiting for the user, by request id. @type {Map<string, HTMLElement>} */
export const cards = new Map();

/**
 * @param {"notice" | "error"} kind
 * @param {string} text
 */
export function note(kind, text) {
  view.render(state.timeline.note(kind, text));
}

export function updateBusy() {
  const open = state.sessionId !== undefined && !state.dead;
  ui.prompt.disabled = !open;
  ui.send.disabled = !open;
  ui.cancel.disabled = !open || !prompts.busy;
  // The spinner is noise while the agent waits on the user.
  ui.working.hidden = !open || !prompts.busy || cards.size > 0;
}
