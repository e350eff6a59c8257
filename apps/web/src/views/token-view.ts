// The daemon wants a token we do not have: ask for it. The token goes into the URL fragment (which never
// reaches the server's logs) and the page reloads to read it.
import type { PageElements } from "./page-elements.js";

export class TokenView {
  constructor(readonly ui: Pick<PageElements, "authLayer" | "auth" | "tokenInput" | "conn">) {
    ui.auth.addEventListener("submit", (e) => {
      e.preventDefault();
      const value = ui.tokenInput.value.trim();
      if (!value) return;
      location.hash = `token=${encodeURIComponent(value)}`;
      location.reload();
    });
  }

  ask(): void {
    this.ui.conn.textContent = "token needed";
    this.ui.conn.dataset.tone = "bad";
    this.ui.authLayer.hidden = false;
    this.ui.tokenInput.focus();
  }
}
