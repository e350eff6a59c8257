// What the page says about itself: the connection pill, the banner (an outage, a failure, with its
// button), the session's title, the tab title (which counts what waits for the person) and the
// screen-reader announcements.
import type { SessionController } from "../session/session-controller.js";
import { sessionState, stateTone, stateWords } from "../session/session-state.js";
import { h } from "./dom.js";
import { icon } from "./icons.js";
import type { PageElements } from "./page-elements.js";

export class StatusView {
  constructor(
    readonly ui: Pick<
      PageElements,
      "conn" | "banner" | "bannerIcon" | "bannerText" | "bannerAction" | "title" | "hint" | "announce" | "app"
    >,
    readonly controller: SessionController,
  ) {
    ui.bannerAction.addEventListener("click", () => controller.banner?.action?.run());
    controller.subscribe((e) => {
      if (e.type === "announce") this.announce(e.text);
      else if (e.type === "status" || e.type === "reset" || e.type.startsWith("interaction")) this.render();
    });
    this.render();
  }

  render(): void {
    const c = this.controller;
    const kinds = c.interactions.map((i) => i.kind);
    const state = sessionState({
      waitingOn: kinds.includes("question") ? "question" : kinds.length > 0 ? "approval" : undefined,
      busy: c.busy,
      stopped: c.dead || c.connection === "ended" || c.connection === "closed",
      away: c.connection === "down",
      connecting: ["opening", "connecting", "reconnecting"].includes(c.connection),
    });
    const words = stateWords(state);
    // With no session open there is nothing to say, unless the daemon is away.
    this.ui.conn.hidden = c.sessionId === undefined && state.kind !== "away";
    this.ui.conn.textContent = words;
    this.ui.conn.dataset.tone = stateTone(state);
    this.ui.conn.title = c.connectionDetail ?? words;
    this.ui.app.dataset.connection = c.connection;
    const banner = c.banner;
    this.ui.banner.hidden = !banner;
    if (banner) {
      this.ui.banner.dataset.tone = banner.tone;
      this.ui.bannerIcon.replaceChildren(icon(banner.tone === "outage" ? "unplugged" : "failed"));
      // A phone shows the short form on one line; the long one says the rest.
      this.ui.bannerText.replaceChildren(
        h("span", { class: "banner-long" }, banner.text),
        h("span", { class: "banner-short" }, banner.short ?? banner.text),
      );
      this.ui.bannerAction.hidden = !banner.action;
      this.ui.bannerAction.textContent = banner.action?.label ?? "";
    }
    this.ui.title.textContent = c.title;
    this.ui.hint.hidden = c.sessionId !== undefined;
    const waiting = c.interactions.length;
    const base = c.sessionId ? `${c.title} · qwen serve` : "qwen serve";
    document.title = waiting > 0 ? `(${waiting}) Waiting for you · ${base}` : base;
  }

  announce(text: string): void {
    this.ui.announce.textContent = "";
    // A fresh text node after a tick makes screen readers announce repeated messages too.
    setTimeout(() => {
      this.ui.announce.textContent = text;
    }, 50);
  }
}
