// The open session's name in the header, and renaming it there: the name becomes a text box (Enter keeps
// the new name, Escape the old one); the daemon stores it, so every page and the list say it from then on.
import type { SessionController } from "../session/session-controller.js";
import { icon } from "./icons.js";
import type { PageElements } from "./page-elements.js";

export class TitleView {
  constructor(
    readonly ui: Pick<PageElements, "title" | "renameForm" | "renameInput" | "rename">,
    readonly controller: SessionController,
  ) {
    ui.rename.append(icon("edit"));
    ui.rename.addEventListener("click", () => this.#edit(true));
    ui.renameForm.addEventListener("submit", (e) => {
      e.preventDefault();
      void this.#save();
    });
    ui.renameInput.addEventListener("keydown", (e) => {
      if (e.key === "Escape") {
        e.preventDefault();
        this.#edit(false);
        ui.rename.focus();
      }
    });
    controller.subscribe((e) => {
      if (e.type === "status" || e.type === "reset") this.#sync();
    });
    this.#sync();
  }

  #sync(): void {
    const editing = !this.ui.renameForm.hidden;
    this.ui.rename.hidden = this.controller.sessionId === undefined || editing;
    this.ui.rename.disabled = !this.controller.canAct;
  }

  #edit(on: boolean): void {
    this.ui.renameForm.hidden = !on;
    this.ui.title.hidden = on;
    if (on) {
      this.ui.renameInput.value = this.controller.title;
      this.ui.renameInput.focus();
      this.ui.renameInput.select();
    }
    this.#sync();
  }

  async #save(): Promise<void> {
    const name = this.ui.renameInput.value.trim();
    if (name === "" || name === this.controller.title) {
      this.#edit(false);
      return;
    }
    this.ui.renameInput.disabled = true;
    try {
      if (await this.controller.rename(name)) this.#edit(false);
    } finally {
      this.ui.renameInput.disabled = false;
    }
  }
}
