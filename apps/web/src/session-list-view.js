// The session list in the sidebar: one button per session with its title, badges (❓ waiting on your
// answer, ...) and age. Re-rendered on every poll without stealing a keyboard user's focus.
import { h } from "./dom.js";
import { relativeTime, sessionBadges, sessionTitle } from "./session-list.js";

/** @typedef {import("./session-list.js").SessionSummary} SessionSummary */

export class SessionListView {
  /** Display names seen in earlier listings, by session id. */
  /** @type {Map<string, string>} */
  #knownNames = new Map();

  /**
   * @param {HTMLUListElement} list
   * @param {(sessionId: string, title: string) => void} onOpen
   */
  constructor(list, onOpen) {
    this.list = list;
    this.onOpen = onOpen;
  }

  /**
   * Shows a page of summaries (replacing the list, or appended for "Show more"); returns them with the
   * names filled in as shown.
   * @param {SessionSummary[]} summaries
   * @param {boolean} append
   * @returns {SessionSummary[]}
   */
  render(summaries, append) {
    const sessions = summaries.map((s) => this.#withKnownName(s));
    const items = sessions.map((s) => this.#item(s));
    const focused = document.activeElement?.closest?.("button.session")?.getAttribute("data-session-id");
    if (append) this.list.append(...items);
    else this.list.replaceChildren(...items);
    if (focused) this.#button(focused)?.focus();
    return sessions;
  }

  /** @param {string | undefined} sessionId */
  markCurrent(sessionId) {
    for (const button of this.list.querySelectorAll("button.session")) {
      if (button.getAttribute("data-session-id") === sessionId) button.setAttribute("aria-current", "true");
      else button.removeAttribute("aria-current");
    }
  }

  /** @param {string} sessionId */
  #button(sessionId) {
    return /** @type {HTMLButtonElement | null} */ (
      this.list.querySelector(`button[data-session-id="${CSS.escape(sessionId)}"]`)
    );
  }

  /**
   * A live session's summary can lack the display name its saved copy had (a session loaded after a
   * restart names itself only at its next prompt); keep showing the name we already know.
   * @param {SessionSummary} s
   * @returns {SessionSummary}
   */
  #withKnownName(s) {
    if (s.displayName) {
      this.#knownNames.set(s.sessionId, s.displayName);
      return s;
    }
    const known = this.#knownNames.get(s.sessionId);
    return known ? { ...s, displayName: known } : s;
  }

  /** @param {SessionSummary} s */
  #item(s) {
    const title = sessionTitle(s);
    const when = relativeTime(s.updatedAt ?? s.createdAt, Date.now());
    return h(
      "li",
      {},
      h(
        "button",
        {
          type: "button",
          class: "session",
          "data-session-id": s.sessionId,
          title: s.sessionId,
          onclick: () => this.onOpen(s.sessionId, title),
        },
        h("span", { class: "session-name" }, title),
        h(
          "span",
          { class: "session-meta" },
          ...sessionBadges(s).map((b) =>
            h(
              "span",
              { class: `badge ${b.tone}`, title: b.text },
              h("span", { "aria-hidden": "true" }, b.icon),
              h("span", { class: "visually-hidden" }, b.text),
            ),
          ),
          s.live ? h("span", { class: "badge live", title: "open on the daemon" }, "live") : undefined,
          when ? h("span", { class: "when" }, when) : undefined,
        ),
      ),
    );
  }
}
