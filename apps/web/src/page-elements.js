// The elements of index.html the client drives, looked up once.
import { byId } from "./dom.js";

export const ui = {
  conn: byId("conn"),
  workspace: byId("workspace"),
  auth: /** @type {HTMLFormElement} */ (byId("auth")),
  tokenInput: /** @type {HTMLInputElement} */ (byId("token-input")),
  sessions: /** @type {HTMLUListElement} */ (byId("sessions")),
  sessionsEmpty: byId("sessions-empty"),
  moreSessions: /** @type {HTMLButtonElement} */ (byId("more-sessions")),
  newSession: /** @type {HTMLButtonElement} */ (byId("new-session")),
  toggleSessions: /** @type {HTMLButtonElement} */ (byId("toggle-sessions")),
  sessionPanel: byId("session-panel"),
  title: byId("session-title"),
  hint: byId("session-hint"),
  banner: byId("banner"),
  bannerText: byId("banner-text"),
  bannerAction: /** @type {HTMLButtonElement} */ (byId("banner-action")),
  log: /** @type {HTMLOListElement} */ (byId("log")),
  working: byId("working"),
  pending: byId("pending"),
  form: /** @type {HTMLFormElement} */ (byId("prompt-form")),
  prompt: /** @type {HTMLTextAreaElement} */ (byId("prompt")),
  send: /** @type {HTMLButtonElement} */ (byId("send")),
  cancel: /** @type {HTMLButtonElement} */ (byId("cancel")),
  announce: byId("announce"),
};
