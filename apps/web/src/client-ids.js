// Our client id per session, kept for this browser tab (sessionStorage), so a page reload re-attaches as
// the same client. The daemon mints ids and reuses a supplied one only when it is registered on that
// session; we still always send one on load, because the daemon re-hangs a restorable question only for
// a load that names a client.

const KEY = "qwen-serve.clientIds";

/**
 * A well-formed client id (`^[A-Za-z0-9._:-]+$`, at most 128) to offer when we hold none for a session.
 * @param {(bytes: Uint8Array) => Uint8Array} fillRandom  e.g. `crypto.getRandomValues.bind(crypto)`
 */
export function freshClientIdHint(fillRandom) {
  const bytes = fillRandom(new Uint8Array(12));
  return `web_${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

export class ClientIds {
  /** @param {Pick<Storage, "getItem" | "setItem"> | undefined} storage */
  constructor(storage) {
    this.storage = storage;
  }

  /** @returns {Record<string, string>} */
  #all() {
    try {
      const parsed = JSON.parse(this.storage?.getItem(KEY) ?? "{}");
      return parsed && typeof parsed === "object" ? parsed : {};
    } catch {
      // A corrupted entry only costs a re-attach under a new id.
      return {};
    }
  }

  /** @param {string} sessionId */
  get(sessionId) {
    const id = this.#all()[sessionId];
    return typeof id === "string" ? id : undefined;
  }

  /**
   * @param {string} sessionId
   * @param {string} clientId
   */
  set(sessionId, clientId) {
    const all = this.#all();
    delete all[sessionId];
    all[sessionId] = clientId;
    // Keep the map small: the newest 50 sessions are plenty for one tab.
    const entries = Object.entries(all).slice(-50);
    this.storage?.setItem(KEY, JSON.stringify(Object.fromEntries(entries)));
  }
}
