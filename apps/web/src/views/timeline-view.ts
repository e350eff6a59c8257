// Renders timeline items into the conversation list, one <li> per item, updated in place by key: your
// messages as bubbles, the agent's as markdown, tool calls as compact rows (kind, title, status) whose
// output and diffs unfold, answers as a short record of who decided what.
import type { AnswerItem, TimelineItem, ToolItem } from "../conversation/timeline.js";
import { kindWord, relativeToWorkspace } from "../conversation/tool-content.js";
import { toolShown } from "../conversation/tool-outcome.js";
import { diffView } from "./diff-view.js";
import { h, hidden } from "./dom.js";
import { type IconName, icon } from "./icons.js";
import { renderMarkdownInto } from "./markdown.js";

const STATUS_ICONS: Record<string, IconName> = {
  pending: "working",
  in_progress: "working",
  completed: "check",
  failed: "x",
  declined: "x",
  stopped: "x",
  interrupted: "restart",
};

const KIND_ICONS: Record<string, IconName> = {
  read: "file",
  edit: "edit",
  delete: "edit",
  move: "edit",
  search: "search",
  execute: "terminal",
  fetch: "globe",
  think: "thought",
};

/** Pixels from the end within which the reader counts as "following" new output. */
const FOLLOW_SLACK_PX = 120;

export class TimelineView {
  readonly #elements = new Map<string, HTMLLIElement>();
  /** Items changed since the last paint: streaming chunks are painted at most once per tick. */
  readonly #dirty = new Map<string, TimelineItem>();
  #scheduled = false;

  /** The reader is at the end of the conversation (so new output and a shrinking view keep them there). */
  #pinned = true;

  constructor(
    readonly list: HTMLOListElement,
    readonly scroller: HTMLElement,
    readonly workspace: () => string | undefined,
  ) {
    scroller.addEventListener("scroll", () => {
      this.#pinned = this.isFollowing();
    });
    // A card docking under the conversation makes it shorter: a reader at the end stays at the end.
    new ResizeObserver(() => {
      if (this.#pinned) this.scrollToEnd();
    }).observe(scroller);
  }

  clear(): void {
    this.#pinned = true;
    this.#elements.clear();
    this.#dirty.clear();
    this.list.replaceChildren();
  }

  render(item: TimelineItem): void {
    this.#dirty.set(item.key, item);
    if (this.#scheduled) return;
    this.#scheduled = true;
    setTimeout(() => this.flush(), 0);
  }

  /** Paints what changed, keeping a reader who is at the end at the end (and never yanking others). */
  flush(): void {
    this.#scheduled = false;
    const following = this.#pinned || this.isFollowing();
    for (const item of this.#dirty.values()) this.#paint(item);
    this.#dirty.clear();
    if (following) this.scrollToEnd();
  }

  isFollowing(): boolean {
    const s = this.scroller;
    return s.scrollTop + s.clientHeight >= s.scrollHeight - FOLLOW_SLACK_PX;
  }

  scrollToEnd(): void {
    this.scroller.scrollTop = this.scroller.scrollHeight;
    this.#pinned = true;
  }

  #paint(item: TimelineItem): void {
    const old = this.#elements.get(item.key);
    const fresh = this.#build(item);
    if (old) {
      // Keep an expanded row expanded while its tool streams updates into it.
      const wasOpen = old.querySelector("details")?.open;
      const details = fresh.querySelector("details");
      if (details && wasOpen !== undefined) details.open = wasOpen;
      old.replaceWith(fresh);
    } else {
      this.list.append(fresh);
    }
    this.#elements.set(item.key, fresh);
  }

  #build(item: TimelineItem): HTMLLIElement {
    switch (item.kind) {
      case "user":
        return h(
          "li",
          { class: "item user" },
          hidden("You said: "),
          h("div", { class: "bubble" }, item.text),
        );
      case "agent": {
        const body = h("div", { class: "markdown" });
        renderMarkdownInto(body, item.text);
        return h(
          "li",
          { class: "item agent" },
          h("span", { class: "avatar" }, icon("spark")),
          h("div", { class: "agent-body" }, hidden("The agent said: "), body),
        );
      }
      case "thought":
        return h(
          "li",
          { class: "item thought" },
          h(
            "details",
            {},
            h("summary", {}, icon("thought"), " Thinking"),
            h("div", { class: "thought-text" }, item.text),
          ),
        );
      case "tool":
        return this.#tool(item);
      case "plan":
        return h(
          "li",
          { class: "item plan" },
          h("p", { class: "plan-head" }, icon("plan"), " Plan"),
          h(
            "ul",
            { class: "plan-list" },
            item.entries.map((e) =>
              h(
                "li",
                { class: `plan-entry plan-${e.status}` },
                icon(e.status === "completed" ? "check" : e.status === "in_progress" ? "working" : "chevron"),
                hidden(
                  `${e.status === "completed" ? "done" : e.status === "in_progress" ? "doing" : "to do"}: `,
                ),
                e.content,
              ),
            ),
          ),
        );
      case "answer":
        return answerRow(item, this.workspace());
      case "error":
        return h("li", { class: "item note error", role: "alert" }, icon("failed"), h("span", {}, item.text));
      default:
        return h("li", { class: "item note notice" }, icon(noticeIcon(item.text)), h("span", {}, item.text));
    }
  }

  #tool(item: ToolItem): HTMLLIElement {
    const shown = toolShown(item);
    const word = kindWord(item.toolKind, item.toolName);
    const head = h(
      "span",
      { class: "tool-head" },
      h(
        "span",
        { class: "tool-kind" },
        icon(
          item.toolName === "ask_user_question" ? "question" : (KIND_ICONS[item.toolKind ?? ""] ?? "tool"),
        ),
      ),
      h("span", { class: "tool-title" }, relativeToWorkspace(shown.title, this.workspace())),
      h("span", { class: "chip" }, word),
      h(
        "span",
        { class: `tool-status status-${shown.status}` },
        icon(STATUS_ICONS[shown.status] ?? "working"),
        h("span", {}, shown.words),
      ),
    );
    let output: HTMLElement | undefined;
    if (shown.body && shown.markdown) {
      output = h("div", { class: "markdown tool-answer" });
      renderMarkdownInto(output, shown.body);
    } else if (shown.body) output = h("pre", { class: "tool-output" }, shown.body);
    const body: (Node | undefined)[] = [...item.diffs.map((d) => diffView(d, this.workspace())), output];
    const hasBody = body.some(Boolean);
    return h(
      "li",
      { class: `item tool tool-${shown.status}` },
      hasBody
        ? h("details", {}, h("summary", {}, head), h("div", { class: "tool-body" }, body))
        : h("div", { class: "tool-row" }, head),
    );
  }
}

/** The head of an answer line: who decided, in a word or two (the detail line says more). */
const WHO: Record<AnswerItem["by"], string> = {
  you: "You",
  device: "You",
  person: "Someone else",
  link: "From a link",
  other: "Another app",
  journal: "You (kept)",
  nobody: "Nobody",
};

function answerRow(item: AnswerItem, workspace: string | undefined): HTMLLIElement {
  const who = WHO[item.by] ?? "Another app";
  const tone = item.verdict.startsWith("Answered") || item.verdict === "Allowed" ? "ok" : "muted";
  return h(
    "li",
    { class: `item answer answer-${tone}` },
    h(
      "div",
      { class: "answer-card" },
      h(
        "p",
        { class: "answer-head" },
        icon(tone === "ok" ? "check" : "x"),
        h("strong", {}, `${who}: ${item.verdict}`),
        h("span", { class: "answer-subject" }, relativeToWorkspace(item.subject, workspace)),
      ),
      item.lines.length > 0
        ? h(
            "dl",
            { class: "answer-lines" },
            item.lines.flatMap((l) => [h("dt", {}, l.label), h("dd", {}, l.value)]),
          )
        : undefined,
      item.detail ? h("p", { class: "answer-detail muted" }, item.detail) : undefined,
    ),
  );
}

function noticeIcon(text: string): IconName {
  return /restart|reload/i.test(text) ? "restart" : "live";
}
