// How a session summary (from `GET /workspace/:cwd/sessions`) reads in the list: a title, and what it
// waits for in words (each with a tone the view colours and an icon that only repeats the words).

import type { SessionSummary } from "../net/daemon-event.js";

export type { SessionSummary };

export type BadgeTone = "ask" | "busy" | "error" | "live";
export type BadgeIcon = "question" | "approval" | "working" | "failed" | "live";
export type Badge = { icon: BadgeIcon; text: string; tone: BadgeTone };

/** A short, stable title: the session's display name (its first prompt), else the start of its id. */
export function sessionTitle(s: SessionSummary): string {
  const name = s.displayName?.trim();
  if (name) return name.length > 80 ? `${name.slice(0, 79)}…` : name;
  return `Session ${s.sessionId.slice(0, 8)}`;
}

/**
 * What the session needs, most urgent first. `rememberedWaiting`: this browser saw the session waiting for
 * a person and nothing has been written to it since (so after a restart, before any load, the question is
 * most likely still there to be asked again).
 */
export function sessionBadges(s: SessionSummary, rememberedWaiting = false): Badge[] {
  const badges: Badge[] = [];
  const onDisk = s.live === true ? [] : (s.pendingOnDisk ?? []);
  if (s.isWaitingForUserQuestion) badges.push({ icon: "question", text: "Needs your answer", tone: "ask" });
  else if (s.isWaitingForPermission)
    badges.push({ icon: "approval", text: "Needs your approval", tone: "ask" });
  else if (onDisk.includes("user_question")) {
    badges.push({ icon: "question", text: "Waiting for you: a question", tone: "ask" });
  } else if (onDisk.length > 0) {
    badges.push({ icon: "approval", text: `Waiting for you: ${approvalWords(onDisk)}`, tone: "ask" });
  } else if (s.live !== true && rememberedWaiting && s.pendingOnDisk === undefined) {
    badges.push({ icon: "question", text: "Was waiting for you: open to check", tone: "ask" });
  }
  if (s.hasActivePrompt) badges.push({ icon: "working", text: "Working", tone: "busy" });
  if (s.hasTurnError) badges.push({ icon: "failed", text: "Last turn failed", tone: "error" });
  return badges;
}

/** What the approvals a session on disk holds ask for, in a few words. */
function approvalWords(kinds: readonly string[]): string {
  const only = kinds.every((k) => k === kinds[0]) ? kinds[0] : undefined;
  if (only === "exec") return "run a command?";
  if (only === "edit") return kinds.length > 1 ? "file edits" : "a file edit";
  if (only === "mcp") return "a tool call";
  return "approvals";
}

/** True when the summary says a person is needed (live, or on disk). */
export function needsPerson(s: SessionSummary): boolean {
  return sessionBadges(s).some((b) => b.tone === "ask");
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
