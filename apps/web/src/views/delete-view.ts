// Deleting the open session from the header: the bin asks first (a dialog naming the session and saying
// what goes: its conversation and saved history, for good); "Delete for good" calls the daemon's delete
// route, the list drops the session at once and the page has no session open. Keep it (or Escape) changes
// nothing.
import { sessionFromHash } from "../net/api.js";
import type { SessionController } from "../session/session-controller.js";
import { icon } from "./icons.js";
import type { PageElements } from "./page-elements.js";

export class DeleteView {
  constructor(
    readonly ui: Pick<PageElements, "deleteSession" | "deleteDialog" | "deleteText">,
    readonly controller: SessionController,
    /** The session was deleted: the list drops it and shows itself. */
    readonly deleted: (sessionId: string) => void,
  ) {
    ui.deleteSession.append(icon("trash"));
    ui.deleteSession.addEventListener("click", () => this.#ask());
    ui.deleteDialog.addEventListener("close", () => {
      if (ui.deleteDialog.returnValue === "delete") void this.#delete();
      else ui.deleteSession.focus();
    });
    controller.subscribe((e) => {
      if (e.type === "status" || e.type === "reset") this.#sync();
    });
    this.#sync();
  }

  #sync(): void {
    this.ui.deleteSession.hidden = this.controller.sessionId === undefined;
    this.ui.deleteSession.disabled = !this.controller.canDelete;
  }

  #ask(): void {
    this.ui.deleteText.textContent = `\u201c${this.controller.title}\u201d: its conversation and saved history are removed from the daemon's storage. This cannot be undone.`;
    this.ui.deleteDialog.returnValue = "";
    this.ui.deleteDialog.showModal();
  }

  async #delete(): Promise<void> {
    this.ui.deleteSession.disabled = true;
    const sessionId = await this.controller.deleteSession();
    this.#sync();
    if (sessionId === undefined) return;
    // A link to the deleted session would open it again on reload: the fragment forgets it (a token stays).
    if (sessionFromHash(location.hash) === sessionId) {
      const params = new URLSearchParams(location.hash.replace(/^#/, ""));
      params.delete("session");
      const rest = params.toString();
      history.replaceState(null, "", `${location.pathname}${location.search}${rest ? `#${rest}` : ""}`);
    }
    this.deleted(sessionId);
  }
}
