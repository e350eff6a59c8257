// Our client id per session, kept for this browser tab (sessionStorage), so a page reload re-attaches as
// the same client. The daemon mints ids and reuses a supplied one only when it is registered on that
// session; we still always send one on load, because the daemon re-hangs a restorable question only for
// a load that names a client.

const KEY = "qwen-serve.clientIds";

export type KeyValueStorage = Pick<Storage, "getItem" | "setItem">;

/**
 * A well-formed client id (`^[A-Za-z0-9._:-]+$`, at most 128) to offer when we hold none for a session.
 * @param fillRandom  e.g. `crypto.getRandomValues.bind(crypto)`
 */
export function freshClientIdHint(fillRandom: (bytes: Uint8Array) => Uint8Array): string {
  const bytes = fillRandom(new Uint8Array(12));
  return `web_${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

export class ClientIds {
  constructor(readonly storage: KeyValueStorage | undefined) {}

  #all(): Record<string, string> {
    try {
      const parsed = JSON.parse(this.storage?.getItem(KEY) ?? "{}");
      return parsed && typeof parsed === "object" ? parsed : {};
    } catch {
      // A corrupted entry only costs a re-attach under a new id.
      return {};
    }
  }

  get(sessionId: string): string | undefined {
    const id = this.#all()[sessionId];
    return typeof id === "string" ? id : undefined;
  }

  set(sessionId: string, clientId: string): void {
    const all = this.#all();
    delete all[sessionId];
    all[sessionId] = clientId;
    // Keep the map small: the newest 50 sessions are plenty for one tab.
    const entries = Object.entries(all).slice(-50);
    this.storage?.setItem(KEY, JSON.stringify(Object.fromEntries(entries)));
  }
}

const DEVICE_KEY = "qwen-serve.device";

/**
 * This browser's device id (kept in localStorage, so every tab and every reload of this browser is the same
 * device), sent as `X-Qwen-Client-Device` so the daemon can say which device an answer came from.
 */
export function deviceId(
  storage: KeyValueStorage | undefined,
  fillRandom: (bytes: Uint8Array) => Uint8Array,
): string {
  const kept = storage?.getItem(DEVICE_KEY);
  if (kept && /^[A-Za-z0-9._:-]{1,128}$/.test(kept)) return kept;
  const fresh = freshClientIdHint(fillRandom).replace(/^web_/, "web_device_");
  storage?.setItem(DEVICE_KEY, fresh);
  return fresh;
}
