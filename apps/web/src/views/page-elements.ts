// The elements of index.html the views drive, looked up once.
import { byId } from "./dom.js";

export function pageElements() {
  return {
    app: byId("app"),
    sidebar: byId("sidebar"),
    scrim: byId("scrim"),
    workspace: byId("workspace"),
    sessions: byId<HTMLUListElement>("sessions"),
    sessionsEmpty: byId("sessions-empty"),
    sessionFilter: byId<HTMLInputElement>("session-filter"),
    moreSessions: byId<HTMLButtonElement>("more-sessions"),
    newSession: byId<HTMLButtonElement>("new-session"),
    toggleSessions: byId<HTMLButtonElement>("toggle-sessions"),
    closeSessions: byId<HTMLButtonElement>("close-sessions"),
    title: byId("session-title"),
    renameForm: byId<HTMLFormElement>("rename-form"),
    renameInput: byId<HTMLInputElement>("rename-input"),
    rename: byId<HTMLButtonElement>("rename"),
    conn: byId("conn"),
    notify: byId<HTMLButtonElement>("notify"),
    banner: byId("banner"),
    bannerIcon: byId("banner-icon"),
    bannerText: byId("banner-text"),
    bannerAction: byId<HTMLButtonElement>("banner-action"),
    scroller: byId("scroller"),
    hint: byId("session-hint"),
    log: byId<HTMLOListElement>("log"),
    queued: byId<HTMLOListElement>("queued"),
    working: byId("working"),
    pending: byId("pending"),
    form: byId<HTMLFormElement>("prompt-form"),
    prompt: byId<HTMLTextAreaElement>("prompt"),
    promptHelp: byId("prompt-help"),
    send: byId<HTMLButtonElement>("send"),
    cancel: byId<HTMLButtonElement>("cancel"),
    authLayer: byId("auth-layer"),
    auth: byId<HTMLFormElement>("auth"),
    tokenInput: byId<HTMLInputElement>("token-input"),
    announce: byId("announce"),
  };
}

export type PageElements = ReturnType<typeof pageElements>;
