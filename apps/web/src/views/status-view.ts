// What the page says about itself: the connection pill, the banner (an outage, a failure, with its
// button), the session's title, the tab title (which counts what waits for the person) and the
// screen-reader announcements.
import type { Connection } from "../session/controller-types.js";
import type { SessionController } from "../session/session-controller.js";
import { icon } from "./icons.js";
import type { PageElements } from "./page-elements.js";

const CONNECTION: Record<Connection, { text: string; tone: string }> = {
  idle: { text: "connected", tone: "ok" },
  opening: { text: "loading…", tone: "warn" },
  connecting: { text: "connecting…", tone: "warn" },
  live: { text: "live", tone: "live" },
  reconnecting: { text: "reconnecting…", tone: "warn" },
  down: { text: "daemon unreachable", tone: "bad" },
  closed: { text: "session closed", tone: "warn" },
  ended: { text: "stopped", tone: "bad" },
};

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
    const conn = CONNECTION[c.connection];
    this.ui.conn.textContent = conn.text;
    this.ui.conn.dataset.tone = conn.tone;
    this.ui.conn.title = c.connectionDetail ?? conn.text;
    this.ui.app.dataset.connection = c.connection;
    const banner = c.banner;
    this.ui.banner.hidden = !banner;
    if (banner) {
      this.ui.banner.dataset.tone = banner.tone;
      this.ui.bannerIcon.replaceChildren(icon(banner.tone === "outage" ? "unplugged" : "failed"));
      this.ui.bannerText.textContent = banner.text;
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
