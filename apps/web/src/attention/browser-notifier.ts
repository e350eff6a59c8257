// The browser's Notification API, at the edge: asks for permission from a click (browsers require a
// gesture), shows a notification for a question or approval while the tab is hidden, and brings the tab
// forward when it is clicked. The bell in the header shows whether notifications are on.
import type { SessionController } from "../session/session-controller.js";
import { hidden } from "../views/dom.js";
import { icon } from "../views/icons.js";
import { type NotificationPermissionState, notificationFor } from "./attention.js";

export class BrowserNotifier {
  readonly #api: typeof Notification | undefined;

  constructor(
    readonly button: HTMLButtonElement,
    readonly controller: SessionController,
  ) {
    this.#api = typeof Notification === "function" ? Notification : undefined;
    button.addEventListener("click", () => void this.enable());
    // A choice made in the browser's site settings shows when the person comes back to the tab.
    document.addEventListener("visibilitychange", () => this.render());
    controller.subscribe((e) => {
      if (e.type !== "attention") return;
      const sessionId = controller.sessionId;
      if (!sessionId) return;
      const note = notificationFor(
        e.interaction,
        { id: sessionId, title: controller.title },
        { hidden: document.visibilityState !== "visible", permission: this.permission },
      );
      if (!note || !this.#api) return;
      try {
        const shown = new this.#api(note.title, { body: note.body, tag: note.tag });
        shown.onclick = () => {
          window.focus();
          shown.close();
        };
      } catch (error) {
        // Some browsers only allow notifications from a service worker; the tab title still says it.
        console.warn("qwen web: could not show a notification", error);
      }
    });
    this.render();
  }

  get permission(): NotificationPermissionState {
    return this.#api ? (this.#api.permission as NotificationPermissionState) : "unsupported";
  }

  async enable(): Promise<void> {
    try {
      // Ask only while undecided; the answer may also have changed in the site settings meanwhile.
      if (this.#api && this.permission === "default") await this.#api.requestPermission();
    } finally {
      this.render();
    }
  }

  render(): void {
    const state = this.permission;
    this.button.hidden = state === "unsupported";
    const label =
      state === "granted"
        ? "Notifications are on: you are told when the agent waits and this tab is hidden"
        : state === "denied"
          ? "Notifications are blocked for this page (change it in the browser's site settings)"
          : "Notify me when the agent waits for me";
    this.button.replaceChildren(icon(state === "granted" ? "bell" : "bellOff"), hidden(label));
    this.button.title = label;
    this.button.setAttribute("aria-label", label);
    this.button.dataset.state = state;
    this.button.setAttribute("aria-disabled", String(state !== "default"));
  }
}
