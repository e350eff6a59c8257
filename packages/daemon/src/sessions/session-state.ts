// The life of a live session, as a pure state machine: opening (the child is loading or creating it; its
// replayed updates are collected, nothing is published) → live (prompts admitted, events published) →
// closing (ended here; the child is being told) → closed. A session whose open fails, or whose child died,
// goes straight to closed: there is nobody left to tell. Anything else is a bug, and throws.

export type SessionState = "opening" | "live" | "closing" | "closed";

export type SessionTransition = "opened" | "close" | "closed";

const NEXT: Record<SessionState, Partial<Record<SessionTransition, SessionState>>> = {
  opening: { opened: "live", closed: "closed" },
  live: { close: "closing", closed: "closed" },
  closing: { closed: "closed" },
  closed: {},
};

export function nextState(state: SessionState, transition: SessionTransition): SessionState {
  const next = NEXT[state][transition];
  if (next === undefined) throw new Error(`session cannot go "${transition}" from "${state}"`);
  return next;
}

/** Ended for the daemon's clients: no more prompts, votes or events. */
export function isEnded(state: SessionState): boolean {
  return state === "closing" || state === "closed";
}

/** What is going on in a session, as docs/restore.md "How a restore runs", step 4 and the idle reaper judge it. */
export type SessionActivity = { promptActive: boolean; pendingPromptCount: number };

export function isIdle(activity: SessionActivity): boolean {
  return !activity.promptActive && activity.pendingPromptCount === 0;
}
