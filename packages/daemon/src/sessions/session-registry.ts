// Which sessions the daemon routes to: live ones by id, ones being opened (their child is replaying), and
// admission slots. A slot is reserved before the child is asked for a session, so concurrent creates
// cannot overshoot `--max-sessions`.
import { sessionLimitExceeded } from "../errors/domain-errors.js";
import type { LiveSession } from "./live-session.js";

export class SessionRegistry {
  /** 0 = no cap. */
  readonly maxSessions: number;
  readonly #live = new Map<string, LiveSession>();
  readonly #openingSessions = new Map<string, LiveSession>();
  /** Opens (load/resume) in flight by id, so a second load of the same id waits for the first. */
  readonly #opens = new Map<string, Promise<unknown>>();
  #reserved = 0;
  /** The workspace's "single"-scope session that POST /session attaches to by default. */
  defaultSessionId: string | undefined;
  /** A "single"-scope create in progress, so concurrent default creates share one session. */
  defaultCreation: Promise<LiveSession> | undefined;

  constructor(maxSessions: number) {
    this.maxSessions = maxSessions;
  }

  get(sessionId: string): LiveSession | undefined {
    return this.#live.get(sessionId);
  }

  /** A live session, or one being opened (for routing the child's messages). */
  getAny(sessionId: string): LiveSession | undefined {
    return this.#live.get(sessionId) ?? this.#openingSessions.get(sessionId);
  }

  live(): LiveSession[] {
    return [...this.#live.values()];
  }

  /** Live and opening sessions. */
  all(): LiveSession[] {
    return [...this.#live.values(), ...this.#openingSessions.values()];
  }

  get liveCount(): number {
    return this.#live.size;
  }

  /** True when the id is live or being opened. */
  isTaken(sessionId: string): boolean {
    return this.#live.has(sessionId) || this.#openingSessions.has(sessionId) || this.#opens.has(sessionId);
  }

  /** Takes one admission slot or throws 503 `session_limit_exceeded`; returns its release. */
  reserve(): () => void {
    // A session being created or opened holds its reservation until it is live, so it counts once.
    if (this.maxSessions > 0 && this.#live.size + this.#reserved >= this.maxSessions) {
      throw sessionLimitExceeded(this.maxSessions);
    }
    this.#reserved += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#reserved -= 1;
    };
  }

  addOpening(session: LiveSession): void {
    this.#openingSessions.set(session.sessionId, session);
  }

  /** Moves a session from opening (if it was) to live. */
  promote(session: LiveSession): void {
    this.#openingSessions.delete(session.sessionId);
    this.#live.set(session.sessionId, session);
  }

  remove(session: LiveSession): void {
    if (this.#live.get(session.sessionId) === session) this.#live.delete(session.sessionId);
    if (this.#openingSessions.get(session.sessionId) === session)
      this.#openingSessions.delete(session.sessionId);
    if (this.defaultSessionId === session.sessionId) this.defaultSessionId = undefined;
  }

  /** The open of `sessionId` in flight (a load or resume, a live session's re-check included), if any. */
  openInFlight(sessionId: string): Promise<unknown> | undefined {
    return this.#opens.get(sessionId);
  }

  /** Tracks an open of `sessionId` until `work` settles. */
  trackOpen<T>(sessionId: string, work: Promise<T>): Promise<T> {
    const tracked = work.finally(() => {
      if (this.#opens.get(sessionId) === tracked) this.#opens.delete(sessionId);
    });
    this.#opens.set(sessionId, tracked);
    return tracked;
  }
}
