// The workspace's sessions as the sidebar shows them: pages of `GET /workspace/:cwd/sessions`, refreshed
// after events that change them, with display names kept across listings (a session reloaded after a
// restart names itself only at its next prompt) and what this browser remembers of waiting sessions.
import type { SessionListPage } from "@qwen-daemon/core/protocol";
import type { Api } from "../net/api.js";
import { describe, isUnauthorized, isUnreachable } from "../net/api-errors.js";
import { callRoute } from "../net/routes.js";
import type { Clock } from "../session/controller-types.js";
import type { SessionSummary } from "./session-list.js";
import type { WaitingMemory } from "./waiting-memory.js";

export const SESSION_PAGE = 30;
const REFRESH_DEBOUNCE_MS = 150;

export type DirectoryEvent = { type: "changed" } | { type: "token-needed" };

export class SessionDirectory {
  sessions: SessionSummary[] = [];
  nextCursor: string | undefined;
  /** Why the last listing failed, if it did. */
  error: string | undefined;
  readonly #names = new Map<string, string>();
  /**
   * Counts listings asked for and sessions created here: a listing's answer is applied only when nothing
   * newer happened since it was asked (answers can arrive out of order, e.g. a slow first listing at boot
   * answering after the one asked when a session was created, and would put back a list without it).
   */
  #generation = 0;
  readonly #listeners = new Set<(e: DirectoryEvent) => void>();
  #timer: unknown;

  constructor(
    readonly api: Api,
    readonly memory: WaitingMemory,
    readonly clock: Clock,
    readonly workspace: () => string | undefined,
  ) {}

  subscribe(listener: (e: DirectoryEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  find(sessionId: string): SessionSummary | undefined {
    return this.sessions.find((s) => s.sessionId === sessionId);
  }

  /** Refreshes soon, once, however many events ask for it (a steady stream of events does not delay it). */
  scheduleRefresh(): void {
    if (this.#timer !== undefined) return;
    this.#timer = this.clock.setTimeout(() => {
      this.#timer = undefined;
      void this.refresh();
    }, REFRESH_DEBOUNCE_MS);
  }

  /** @param more  append the next page instead of reloading the first */
  async refresh(more = false): Promise<void> {
    const workspace = this.workspace();
    if (!workspace) return;
    const cursor = more && this.nextCursor ? this.nextCursor : undefined;
    const generation = ++this.#generation;
    try {
      const page: Partial<SessionListPage> = await callRoute(this.api, "workspaceSessions", {
        params: { cwd: workspace },
        query: { size: SESSION_PAGE, cursor },
      });
      if (generation !== this.#generation) return;
      const fresh: SessionSummary[] = (Array.isArray(page.sessions) ? page.sessions : []).map((s) =>
        this.#withKnownName(s),
      );
      this.memory.observeListing(fresh);
      this.sessions = more ? [...this.sessions, ...fresh.filter((s) => !this.find(s.sessionId))] : fresh;
      this.nextCursor = typeof page.nextCursor === "string" ? page.nextCursor : undefined;
      this.error = undefined;
    } catch (error) {
      if (generation !== this.#generation) return;
      if (isUnauthorized(error)) {
        this.#emit({ type: "token-needed" });
        return;
      }
      // The daemon being away is the banner's news; the list keeps what it last knew.
      if (isUnreachable(error)) return;
      this.error = `Could not list sessions: ${describe(error)}`;
    }
    this.#emit({ type: "changed" });
  }

  /**
   * A session this page just created is listed at once (live, this page attached), instead of after the
   * next listing: the list must never say "no sessions" beside the session being worked in. Listings asked
   * before it are then ignored; the next one replaces this entry with the daemon's.
   */
  noteCreated(session: { sessionId: string; workspaceCwd: string; createdAt: string }): void {
    this.#generation++;
    if (!this.find(session.sessionId)) {
      const entry: SessionSummary = { ...session, live: true, clientCount: 1, hasActivePrompt: false };
      this.sessions = [entry, ...this.sessions];
    }
    this.#emit({ type: "changed" });
  }

  /** A session deleted from this page leaves the list at once; listings asked before it are ignored. */
  noteDeleted(sessionId: string): void {
    this.#generation++;
    this.sessions = this.sessions.filter((s) => s.sessionId !== sessionId);
    this.#names.delete(sessionId);
    this.#emit({ type: "changed" });
    this.scheduleRefresh();
  }

  #withKnownName(s: SessionSummary): SessionSummary {
    if (s.displayName) {
      this.#names.set(s.sessionId, s.displayName);
      return s;
    }
    const known = this.#names.get(s.sessionId);
    return known ? { ...s, displayName: known } : s;
  }

  #emit(e: DirectoryEvent): void {
    for (const l of this.#listeners) l(e);
  }
}
