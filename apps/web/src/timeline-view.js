// Renders timeline items into the conversation list, one <li> per item, updated in place by key.
import { h } from "./dom.js";

/** @typedef {import("./timeline.js").TimelineItem} TimelineItem */

const STATUS = /** @type {Record<string, { icon: string, text: string }>} */ ({
  pending: { icon: "⋯", text: "waiting" },
  in_progress: { icon: "⏳", text: "running" },
  completed: { icon: "✓", text: "done" },
  failed: { icon: "✗", text: "failed" },
});

export class TimelineView {
  /** @type {Map<string, HTMLLIElement>} */
  #elements = new Map();

  /** @param {HTMLOListElement} list */
  constructor(list) {
    this.list = list;
  }

  clear() {
    this.#elements.clear();
    this.list.replaceChildren();
  }

  /**
   * Creates or refreshes the item's element, and keeps the newest content in view for a reader at the end.
   * @param {TimelineItem | undefined} item
   */
  render(item) {
    if (!item) return;
    // Follow new output only when the reader is already at the end, never yank them back while they
    // scroll up through history.
    const doc = document.documentElement;
    const following = window.innerHeight + window.scrollY >= doc.scrollHeight - 160;
    const fresh = build(item);
    const old = this.#elements.get(item.key);
    if (old) {
      // Keep an expanded <details> expanded while a tool streams updates into it.
      const wasOpen = old.querySelector("details")?.open;
      const details = fresh.querySelector("details");
      if (details && wasOpen) details.open = true;
      old.replaceWith(fresh);
    } else {
      this.list.append(fresh);
    }
    this.#elements.set(item.key, fresh);
    if (following) fresh.scrollIntoView?.({ block: "nearest" });
  }
}

/**
 * @param {TimelineItem} item
 * @returns {HTMLLIElement}
 */
function build(item) {
  switch (item.kind) {
    case "user":
      return h(
        "li",
        { class: "item user" },
        h("span", { class: "who" }, "You"),
        h("div", { class: "text" }, item.text),
      );
    case "agent":
      return h(
        "li",
        { class: "item agent" },
        h("span", { class: "who" }, "Agent"),
        h("div", { class: "text" }, item.text),
      );
    case "thought":
      return h(
        "li",
        { class: "item thought" },
        h("details", {}, h("summary", {}, "Thinking"), h("div", { class: "text" }, item.text)),
      );
    case "tool": {
      const status = STATUS[item.status ?? "pending"] ?? { icon: "•", text: item.status ?? "" };
      const head = h(
        "span",
        { class: "tool-head" },
        h(
          "span",
          {
            class: `status status-${item.status ?? "pending"}`,
            role: "img",
            "aria-label": status.text,
            title: status.text,
          },
          status.icon,
        ),
        " ",
        h("span", { class: "tool-title" }, item.title ?? item.text),
        item.toolKind ? h("span", { class: "chip" }, item.toolKind) : undefined,
      );
      return h(
        "li",
        { class: `item tool tool-${item.status ?? "pending"}` },
        item.detail ? h("details", {}, h("summary", {}, head), h("pre", {}, item.detail)) : head,
      );
    }
    case "plan":
      return h("li", { class: "item plan" }, h("span", { class: "who" }, "Plan"), h("pre", {}, item.text));
    case "error":
      return h("li", { class: "item error", role: "alert" }, item.text);
    default:
      return h("li", { class: "item notice" }, item.text);
  }
}
