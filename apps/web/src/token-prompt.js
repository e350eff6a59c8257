// The daemon wants a token we do not have: ask for it. The token goes into the URL fragment (which never
// reaches the server's logs) and the page reloads to read it.
import { ui } from "./page-elements.js";
import { setConn } from "./page-status.js";

export function askForToken() {
  setConn("token needed", "bad");
  ui.auth.hidden = false;
  ui.tokenInput.focus();
}

/** @param {SubmitEvent} e */
export function useSubmittedToken(e) {
  e.preventDefault();
  const value = ui.tokenInput.value.trim();
  if (!value) return;
  // The fragment never reaches the server's logs; reloading re-reads it.
  location.hash = `token=${encodeURIComponent(value)}`;
  location.reload();
}
