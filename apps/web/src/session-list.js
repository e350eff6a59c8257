// How a session summary (from `GET /workspace/:cwd/sessions`) reads in the list: a title and badges.

/**
 * @typedef {{ sessionId: string, displayName?: string, createdAt?: string, updatedAt?: string,
 *   live?: boolean, clientCount?: number, hasActivePrompt?: boolean, isWaitingForPermission?: boolean,
 *   isWaitingForUserQuestion?: boolean, hasTurnError?: boolean, turnError?: any }} SessionSummary
 * @typedef {{ icon: string, text: string, tone: "ask" | "busy" | "error" | "live" }} Badge
 */

/**
 * A short, stable title: the session's display name (its first prompt), else the start of its id.
 * @param {SessionSummary} s
 */
export function sessionTitle(s) {
  const name = s.displayName?.trim();
  if (name) return name.length > 80 ? `${name.slice(0, 79)}…` : name;
  return `Session ${s.sessionId.slice(0, 8)}`;
}

/**
 * @param {SessionSummary} s
 * @returns {Badge[]}
 */
export function sessionBadges(s) {
  /** @type {Badge[]} */
  const badges = [];
  if (s.isWaitingForUserQuestion) badges.push({ icon: "❓", text: "waiting for your answer", tone: "ask" });
  else if (s.isWaitingForPermission) badges.push({ icon: "✋", text: "waiting for approval", tone: "ask" });
  if (s.hasActivePrompt) badges.push({ icon: "⏳", text: "working", tone: "busy" });
  if (s.hasTurnError) badges.push({ icon: "⚠️", text: "last turn failed", tone: "error" });
  return badges;
}

/**
 * "just now", "5 min ago", "3 h ago", else the date. `now` is injected so this stays pure.
 * @param {string | undefined} iso
 * @param {number} now
 */
export function relativeTime(iso, now) {
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
