// The page's one connection to the daemon: the API client (with the token from the URL fragment) and the
// client ids this tab holds per session (kept in sessionStorage, so a reload re-attaches as the same client).
import { createApi, tokenFromHash } from "./api.js";
import { ClientIds } from "./client-ids.js";

const token = tokenFromHash(location.hash);
export const api = createApi({ fetch: window.fetch.bind(window), token });
export const clientIds = new ClientIds(safeSessionStorage());

function safeSessionStorage() {
  try {
    return window.sessionStorage;
  } catch {
    // Storage can be disabled (privacy settings); we then just re-attach under a new id after a reload.
    return undefined;
  }
}
