// How a session summary (from `GET /workspace/:cwd/sessions`) reads in the list: a title, and what it
// waits for in words (each with a tone the view colours and an icon that only repeats the words).

import type { SessionSummary } from "../net/daemon-event.js";

export type { SessionSummary };

import { sessionState, stateWords } from "../session/session-state.js";

export type BadgeTone = "ask" | "busy" | "error";
export type BadgeIcon = "question" | "approval" | "working" | "failed";
/** `state`: the badge says the session's state (session-state.ts), in the words the header uses. */
export type Badge = { icon: BadgeIcon; text: string; tone: BadgeTone; state?: boolean; detail?: string };

/** Titles are cut to this many characters, at a word. */
export const TITLE_CHARS = 48;

/**
 * A short title from a longer text (the first prompt): its first line, its first sentence when that ends in
 * time, else cut at the last word that fits, with "…".
 */
export function summaryTitle(text: string, max = TITLE_CHARS): string {
  const line = (text.trim().split("\n")[0] ?? "").trim();
  if (line.length <= max) return line;
  const sentence = /^(.{12,}?[.!?])\s/.exec(line)?.[1];
  if (sentence && sentence.length <= max) return sentence;
  const cut = line.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut.slice(0, max - 1)).replace(/[\s,;:.-]+$/, "")}…`;
}

/**
 * What the session is called: the name the daemon has for it (a name given by a person or the agent, else
 * its first prompt) summarised; "Untitled session" before anything was asked.
 */
export function sessionTitle(s: SessionSummary): string {
  const name = s.displayName?.trim();
  return name ? summaryTitle(name) : "Untitled session";
}

/**
 * What the session needs, most urgent first: its state in the header's words when it is not idle, then a
 * failed last turn. `rememberedWaiting`: this browser saw the session waiting for a person and nothing has
 * been written to it since (so after a restart, before any load, the question is most likely still there).
 */
export function sessionBadges(s: SessionSummary, rememberedWaiting = false): Badge[] {
  const badges: Badge[] = [];
  const onDisk = s.live === true ? [] : (s.pendingOnDisk ?? []);
  const waitingOn =
    s.isWaitingForUserQuestion || onDisk.includes("user_question")
      ? "question"
      : s.isWaitingForPermission || onDisk.length > 0
        ? "approval"
        : undefined;
  const state = sessionState({ waitingOn, busy: s.hasActivePrompt === true });
  if (state.kind === "waiting") {
    const detail = onDisk.length > 0 && waitingOn === "approval" ? approvalWords(onDisk) : undefined;
    badges.push({
      icon: state.on === "question" ? "question" : "approval",
      text: stateWords(state),
      tone: "ask",
      state: true,
      ...(detail ? { detail } : {}),
    });
  } else if (s.live !== true && rememberedWaiting && s.pendingOnDisk === undefined) {
    badges.push({ icon: "question", text: "Was waiting for you: open to check", tone: "ask", state: true });
  } else if (state.kind === "working") {
    badges.push({ icon: "working", text: stateWords(state), tone: "busy", state: true });
  }
  if (s.hasTurnError) badges.push({ icon: "failed", text: "Last turn went wrong", tone: "error" });
  return badges;
}

/** What the approvals a session on disk holds ask for, in a few words. */
function approvalWords(kinds: readonly string[]): string {
  const only = kinds.every((k) => k === kinds[0]) ? kinds[0] : undefined;
  if (only === "exec") return "to run a command";
  if (only === "edit") return kinds.length > 1 ? "file edits" : "a file edit";
  if (only === "mcp") return "a tool call";
  return "approvals";
}

/** True when the summary says a person is needed (live, or on disk). */
export function needsPerson(s: SessionSummary): boolean {
  return sessionBadges(s).some((b) => b.tone === "ask");
}

/** True when `query` (words, any case) is found in the session's title. */
export function matchesFilter(s: SessionSummary, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const title = `${sessionTitle(s)} ${s.displayName ?? ""}`.toLowerCase();
  return words.every((w) => title.includes(w));
}

/** "just now", "5 min ago", "3 h ago", else the date. `now` is injected so this stays pure. */
export function relativeTime(iso: string | undefined, now: number): string {
  if (!iso) return "";
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return "";
  const s = Math.max(0, Math.round((now - then) / 1000));
  if (s < 45) return "just now";
  const min = Math.round(s / 60);
  if (min < 60) return `${min} min ago`;
  const h = Math.round(min / 60);
  if (h < 24) return `${h} h ago`;
  return new Date(then).toISOString().slice(0, 10);
}
