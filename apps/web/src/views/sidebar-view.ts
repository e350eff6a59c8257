// The sidebar: the session list (title, what it needs in words and colour, age), "New session", paging;
// on narrow screens a drawer opened from the header. Re-rendered on every refresh without stealing a
// keyboard user's focus.

import type { SessionController } from "../session/session-controller.js";
import type { SessionDirectory } from "../sessions/session-directory.js";
import {
  matchesFilter,
  relativeTime,
  type SessionSummary,
  sessionBadges,
  sessionTitle,
  summaryTitle,
} from "../sessions/session-list.js";
import type { WaitingMemory } from "../sessions/waiting-memory.js";
import { h } from "./dom.js";
import { icon } from "./icons.js";
import type { PageElements } from "./page-elements.js";

export class SidebarView {
  readonly narrow = window.matchMedia("(max-width: 820px)");
  /** The agent's title of the open session as the list last showed it. */
  #agentTitle: string | undefined;

  constructor(
    readonly ui: Pick<
      PageElements,
      | "sidebar"
      | "scrim"
      | "sessions"
      | "sessionsEmpty"
      | "sessionFilter"
      | "moreSessions"
      | "newSession"
      | "toggleSessions"
      | "closeSessions"
      | "workspace"
    >,
    readonly directory: SessionDirectory,
    readonly memory: WaitingMemory,
    readonly controller: SessionController,
    readonly now: () => number,
  ) {
    ui.newSession.prepend(icon("plus"), " ");
    ui.toggleSessions.append(icon("menu"));
    ui.closeSessions.append(icon("close"));
    ui.newSession.addEventListener("click", async () => {
      ui.newSession.disabled = true;
      try {
        if (await controller.create()) {
          const { sessionId, workspace } = controller;
          if (sessionId && workspace) {
            directory.noteCreated({
              sessionId,
              workspaceCwd: workspace,
              createdAt: new Date(this.now()).toISOString(),
            });
          }
          this.show(false);
          document.getElementById("prompt")?.focus();
        }
      } finally {
        ui.newSession.disabled = false;
      }
    });
    ui.moreSessions.addEventListener("click", () => void directory.refresh(true));
    ui.sessionFilter.addEventListener("input", () => this.render());
    ui.toggleSessions.addEventListener("click", () => this.show(true));
    ui.closeSessions.addEventListener("click", () => this.show(false));
    ui.scrim.addEventListener("click", () => this.show(false));
    document.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && this.#drawerOpen()) {
        this.show(false);
        ui.toggleSessions.focus();
      }
    });
    directory.subscribe((e) => {
      if (e.type === "changed") this.render();
    });
    controller.subscribe((e) => {
      if (e.type === "status") {
        const ws = controller.workspace ?? "";
        // The end of the path is the part that tells workspaces apart; the whole path is in the tooltip.
        this.ui.workspace.textContent = ws.split("/").filter(Boolean).slice(-2).join("/") || ws;
        this.ui.workspace.title = ws;
        this.markCurrent();
        if (controller.agentTitle !== this.#agentTitle) {
          this.#agentTitle = controller.agentTitle;
          this.render();
        }
      }
    });
  }

  /** Opens (true) or closes the drawer on narrow screens; on wide ones the list is always there. */
  show(open: boolean): void {
    const drawer = open && this.narrow.matches;
    this.ui.sidebar.classList.toggle("open", drawer);
    this.ui.scrim.hidden = !drawer;
    this.ui.toggleSessions.setAttribute("aria-expanded", String(drawer));
    if (drawer) this.ui.sidebar.querySelector<HTMLElement>("button.session, #new-session")?.focus();
  }

  render(): void {
    const d = this.directory;
    const focused = document.activeElement?.closest?.("button.session")?.getAttribute("data-session-id");
    const query = this.ui.sessionFilter.value;
    const shown = d.sessions.filter((s) => matchesFilter(s, query));
    this.ui.sessions.replaceChildren(...shown.map((s) => this.#item(s)));
    if (focused) this.#button(focused)?.focus();
    // The filter is worth its room once there is something to look for.
    this.ui.sessionFilter.hidden = d.sessions.length < 2 && query === "";
    this.ui.sessionsEmpty.hidden = shown.length > 0 && !d.error;
    this.ui.sessionsEmpty.textContent =
      d.error ?? (d.sessions.length > 0 ? "No session matches." : "No sessions in this workspace yet.");
    this.ui.moreSessions.hidden = !d.nextCursor;
    this.markCurrent();
    const current = this.controller.sessionId ? d.find(this.controller.sessionId) : undefined;
    if (current?.displayName) this.controller.setTitle(sessionTitle(current));
  }

  markCurrent(): void {
    for (const button of this.ui.sessions.querySelectorAll("button.session")) {
      if (button.getAttribute("data-session-id") === this.controller.sessionId)
        button.setAttribute("aria-current", "true");
      else button.removeAttribute("aria-current");
    }
  }

  #drawerOpen(): boolean {
    return this.ui.sidebar.classList.contains("open");
  }

  #button(sessionId: string): HTMLButtonElement | null {
    return this.ui.sessions.querySelector(`button[data-session-id="${CSS.escape(sessionId)}"]`);
  }

  #item(s: SessionSummary): HTMLLIElement {
    // The open session by the title its agent gave it, when it gave one (the daemon's list does not know it).
    const agentTitle = s.sessionId === this.controller.sessionId ? this.controller.agentTitle : undefined;
    const title = agentTitle ? summaryTitle(agentTitle) : sessionTitle(s);
    const when = relativeTime(s.updatedAt ?? s.createdAt, this.now());
    const badges = sessionBadges(s, this.memory.wasWaiting(s));
    const needsYou = badges.some((b) => b.tone === "ask");
    return h(
      "li",
      {},
      h(
        "button",
        {
          type: "button",
          class: `session${needsYou ? " needs-you" : ""}`,
          "data-session-id": s.sessionId,
          // Held in memory by the daemon (for tests and styles; the words say what matters).
          ...(s.live ? { "data-live": "true" } : {}),
          title: s.sessionId,
          onclick: () => {
            this.show(false);
            void this.controller.open(s.sessionId, title, { kind: "pick", onDisk: s.live !== true });
          },
        },
        h(
          "span",
          { class: "session-line" },
          h("span", { class: "session-name" }, title),
          when ? h("span", { class: "when" }, when) : undefined,
        ),
        badges.length > 0
          ? h(
              "span",
              { class: "session-meta" },
              ...badges.map((b) =>
                h(
                  "span",
                  {
                    class: `badge ${b.tone}${b.state ? " state" : ""}`,
                    ...(b.detail ? { title: b.detail } : {}),
                  },
                  icon(b.icon),
                  h("span", {}, b.text),
                ),
              ),
            )
          : undefined,
      ),
    );
  }
}
