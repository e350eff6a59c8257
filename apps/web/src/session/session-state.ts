// The one vocabulary for what a session is doing, used by the header, the session list and the cards, so a
// person never reads two words for one state ("Needs your answer" here, "Waiting for you: a question" there)
// or two states at once ("Working" while the agent waits on them). Pure.

export type SessionState =
  | { kind: "working" }
  | { kind: "waiting"; on: "question" | "approval" }
  | { kind: "idle" }
  | { kind: "stopped" }
  | { kind: "away" }
  | { kind: "connecting" };

/** The tone a view colours a state with (an icon beside it only repeats the words). */
export type StateTone = "ask" | "busy" | "idle" | "bad" | "warn";

export type StateFacts = {
  /** What waits for the person, if anything (a question wins over an approval: it is the one to read). */
  waitingOn?: "question" | "approval" | undefined;
  busy: boolean;
  /** The agent process ended, or the session was closed. */
  stopped?: boolean;
  /** The daemon cannot be reached. */
  away?: boolean;
  /** The page is still reaching the session. */
  connecting?: boolean;
};

export function sessionState(facts: StateFacts): SessionState {
  if (facts.away) return { kind: "away" };
  if (facts.stopped) return { kind: "stopped" };
  if (facts.connecting) return { kind: "connecting" };
  if (facts.waitingOn) return { kind: "waiting", on: facts.waitingOn };
  if (facts.busy) return { kind: "working" };
  return { kind: "idle" };
}

export function stateWords(state: SessionState): string {
  switch (state.kind) {
    case "working":
      return "Working";
    case "waiting":
      return `Waiting for you: ${state.on}`;
    case "idle":
      return "Idle";
    case "stopped":
      return "Stopped";
    case "away":
      return "Daemon away";
    case "connecting":
      return "Connecting…";
  }
}

export function stateTone(state: SessionState): StateTone {
  switch (state.kind) {
    case "working":
      return "busy";
    case "waiting":
      return "ask";
    case "stopped":
    case "away":
      return "bad";
    case "connecting":
      return "warn";
    default:
      return "idle";
  }
}
