// The message box pinned under the conversation: Enter sends, Shift+Enter adds a line (on a touch screen,
// whose keyboard has no Shift+Enter, Return adds a line and the arrow sends), it grows with its text, and its
// draft is kept per session (across reconnects, restores and reloads). While nothing can be sent (the daemon
// is away, the agent stopped) the box stays editable and Send waits. A message sent while the agent is busy
// or waits on the person is queued by the daemon and shown as queued (views/queue-view.ts).
import { leftAfterSend } from "../interactions/drafts.js";
import type { SessionController } from "../session/session-controller.js";
import { hidden } from "./dom.js";
import { icon } from "./icons.js";
import type { PageElements } from "./page-elements.js";

const MAX_HEIGHT_PX = 220;
const KEYBOARD_HINT = "Enter sends, Shift+Enter adds a line.";
const TOUCH_HINT = "Tap the arrow to send; Return adds a line.";

export class ComposerView {
  #sending = false;

  constructor(
    readonly ui: Pick<PageElements, "form" | "prompt" | "send" | "cancel" | "working" | "promptHelp">,
    readonly controller: SessionController,
    readonly touch: MediaQueryList = window.matchMedia("(pointer: coarse)"),
  ) {
    const hint = () => {
      ui.promptHelp.textContent = touch.matches ? TOUCH_HINT : KEYBOARD_HINT;
    };
    hint();
    touch.addEventListener("change", hint);
    ui.send.append(icon("send"), hidden("Send"));
    ui.cancel.prepend(icon("stop"), " ");
    ui.form.addEventListener("submit", (e) => {
      e.preventDefault();
      void this.send();
    });
    ui.prompt.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && !e.shiftKey && !e.isComposing && !this.touch.matches) {
        e.preventDefault();
        void this.send();
      }
    });
    ui.prompt.addEventListener("input", () => {
      controller.saveComposer(ui.prompt.value);
      this.#fit();
      this.#sync();
    });
    ui.cancel.addEventListener("click", () => void controller.cancel());
    controller.subscribe((e) => {
      if (e.type === "reset") {
        ui.prompt.value = controller.composerDraft();
        this.#fit();
      }
      if (e.type === "status" || e.type === "reset" || e.type.startsWith("interaction")) this.#sync();
    });
    this.#sync();
  }

  /** Puts a queued message taken back into the box, before what is being typed. */
  takeBack(text: string): void {
    const draft = this.ui.prompt.value.trim();
    this.ui.prompt.value = draft ? `${text}\n${draft}` : text;
    this.controller.saveComposer(this.ui.prompt.value);
    this.#fit();
    this.#sync();
    this.ui.prompt.focus();
  }

  async send(): Promise<void> {
    const text = this.ui.prompt.value.trim();
    if (!text || this.#sending || !this.controller.canAct) return;
    this.#sending = true;
    // Marks the text on its way, so a card arriving before the daemon's answer knows the box is not a new
    // draft being typed (views/cards-view.ts).
    this.ui.prompt.dataset.sending = text;
    this.#sync();
    try {
      if (await this.controller.send(text)) {
        // What was typed while the message was on its way stays in the box.
        this.ui.prompt.value = leftAfterSend(this.ui.prompt.value, text);
        this.#fit();
      }
    } finally {
      delete this.ui.prompt.dataset.sending;
      this.#sending = false;
      this.#sync();
    }
  }

  #sync(): void {
    const c = this.controller;
    const open = c.sessionId !== undefined;
    this.ui.prompt.disabled = !open;
    this.ui.prompt.placeholder = !open
      ? "Open or create a session first"
      : c.connection === "down"
        ? "The daemon is away: keep writing, send when it is back"
        : "Message the agent…";
    this.ui.send.disabled = !c.canAct || this.#sending || this.ui.prompt.value.trim() === "";
    // Stop is for a working agent; while it waits on the person the card's own decline is the way out.
    this.ui.cancel.hidden = !open || !c.busy || c.interactions.length > 0;
    this.ui.cancel.disabled = !c.canAct;
    // The "working" line is noise while the agent waits on the person.
    this.ui.working.hidden = !open || !c.busy || c.interactions.length > 0 || !c.canAct;
  }

  #fit(): void {
    const p = this.ui.prompt;
    p.style.height = "auto";
    p.style.height = `${Math.min(p.scrollHeight, MAX_HEIGHT_PX)}px`;
  }
}
