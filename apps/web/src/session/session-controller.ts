// The open session's lifecycle, in one place: creating and loading it, its live events, sending prompts and
// votes, and getting it back after the daemon went away. What the session holds (conversation, waiting
// cards) is its SessionModel; views read both and listen to the controller's events; it knows nothing of the
// DOM. Everything with a side effect (the API, client ids, drafts, the clock, the event stream) is passed
// in, so tests drive it with fakes.

import type {
  AttachResponse,
  CapabilitiesResponse,
  OpenSessionResponse,
  TranscriptResponse,
} from "@qwen-daemon/core/protocol";
import type { TimelineItem } from "../conversation/timeline.js";
import type { PermissionOption, Selection } from "../interactions/answers.js";
import type { Interaction } from "../interactions/interaction.js";
import { sessionPath } from "../net/api.js";
import { describe, isUnauthorized, isUnreachable } from "../net/api-errors.js";
import type { DaemonEvent } from "../net/daemon-event.js";
import type { EventStream, StreamEnd } from "../net/event-stream.js";
import type {
  Banner,
  CardState,
  Connection,
  ControllerDeps,
  ControllerEvent,
  Listener,
  OpenReason,
} from "./controller-types.js";
import { DaemonWatch } from "./daemon-watch.js";
import { RecoveryBudget } from "./recovery-budget.js";
import { type ActionHost, cancelPrompt, sendPrompt, sendVote } from "./session-actions.js";
import { type RestoreHint, SessionModel } from "./session-model.js";

export { ASKED_AGAIN } from "./session-model.js";

const NEW_SESSION_TITLE = "New session";
const OUTAGE_TEXT =
  "The daemon cannot be reached. Sending and answering are paused until it is back; what you typed is kept.";

export class SessionController {
  readonly #deps: ControllerDeps;
  readonly #listeners = new Set<Listener>();
  readonly #budget = new RecoveryBudget();
  readonly #watch: DaemonWatch;
  #sessionId: string | undefined;
  #clientId: string | undefined;
  #title = "No session open";
  #workspace: string | undefined;
  #connection: Connection = "idle";
  #detail: string | undefined;
  #banner: Banner | undefined;
  #dead = false;
  #stream: EventStream | undefined;
  #model: SessionModel;
  #opening: Promise<void> | undefined;
  #openingId: string | undefined;

  constructor(deps: ControllerDeps) {
    this.#deps = deps;
    this.#watch = new DaemonWatch(deps.api, deps.clock, () => this.#daemonBack());
    this.#model = this.#newModel(false);
  }

  // --- what views read -------------------------------------------------------------------------------

  get sessionId(): string | undefined {
    return this.#sessionId;
  }
  get clientId(): string | undefined {
    return this.#clientId;
  }
  get title(): string {
    return this.#title;
  }
  get workspace(): string | undefined {
    return this.#workspace;
  }
  get connection(): Connection {
    return this.#connection;
  }
  /** Why the connection is what it is (an error message), if known. */
  get connectionDetail(): string | undefined {
    return this.#detail;
  }
  get banner(): Banner | undefined {
    return this.#banner;
  }
  get busy(): boolean {
    return this.#model.prompts.busy;
  }
  get dead(): boolean {
    return this.#dead;
  }
  /** A message or an answer can be sent now (a session is open, its agent alive, the daemon reachable). */
  get canAct(): boolean {
    const c = this.#connection;
    return (
      this.#sessionId !== undefined && !this.#dead && !["down", "opening", "closed", "ended"].includes(c)
    );
  }
  get items(): readonly TimelineItem[] {
    return this.#model.timeline.items;
  }
  get interactions(): Interaction[] {
    return [...this.#model.interactions.values()];
  }
  cardState(requestId: string): CardState {
    return this.#model.cards.get(requestId) ?? { sending: false };
  }

  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  // --- drafts ---------------------------------------------------------------------------------------

  selectionFor(key: string): Selection[] | undefined {
    return this.#sessionId ? this.#deps.drafts.selection(this.#sessionId, key) : undefined;
  }
  saveSelection(key: string, selections: Selection[]): void {
    if (this.#sessionId) this.#deps.drafts.setSelection(this.#sessionId, key, selections);
  }
  composerDraft(): string {
    return this.#sessionId ? this.#deps.drafts.composer(this.#sessionId) : "";
  }
  saveComposer(text: string): void {
    if (this.#sessionId) this.#deps.drafts.setComposer(this.#sessionId, text);
  }

  // --- the daemon and its sessions ------------------------------------------------------------------

  /** Reads the daemon's capabilities (its workspace). False when it must wait (down, or a token needed). */
  async connect(): Promise<boolean> {
    try {
      const caps = await this.#deps.api.request<CapabilitiesResponse>("GET", "/capabilities");
      this.#workspace = typeof caps.workspaceCwd === "string" ? caps.workspaceCwd : undefined;
      if (this.#connection === "down") this.#leaveOutage();
      this.#emit({ type: "status" });
      return true;
    } catch (error) {
      this.#failed(error, `The daemon refused: ${describe(error)}`);
      return false;
    }
  }

  async create(): Promise<boolean> {
    try {
      const res = await this.#deps.api.request<AttachResponse>("POST", "/session", {
        sessionScope: "thread",
      });
      this.#enter(res, NEW_SESSION_TITLE, undefined);
      this.#emit({ type: "list-changed" });
      return true;
    } catch (error) {
      this.#failed(error, `Could not create a session: ${describe(error)}`);
      return false;
    }
  }

  /**
   * Loads a session and follows it. One load at a time: a double click or a recovery racing a click must
   * not attach twice; a pick of another session waits for the load in flight, then wins.
   */
  open(
    sessionId: string,
    title?: string,
    reason: OpenReason = { kind: "pick", onDisk: false },
  ): Promise<void> {
    if (this.#opening && this.#openingId === sessionId) return this.#opening;
    const previous = this.#opening;
    let opening: Promise<void> | undefined;
    opening = (async () => {
      await previous;
      try {
        await this.#load(sessionId, title, reason);
      } finally {
        if (this.#opening === opening) {
          this.#opening = undefined;
          this.#openingId = undefined;
        }
      }
    })();
    this.#opening = opening;
    this.#openingId = sessionId;
    return opening;
  }

  /** Stops following the open session (the page is going away). */
  leave(pageGoingAway: boolean): void {
    this.#stream?.close();
    this.#stream = undefined;
    this.#watch.stop();
    if (this.#sessionId && this.#clientId)
      this.#deps.detach?.(this.#sessionId, this.#clientId, pageGoingAway);
  }

  setTitle(title: string): void {
    if (title === this.#title) return;
    this.#title = title;
    this.#emit({ type: "status" });
  }

  /** The banner's button: look for the daemon now (while it is away), or reload the session. */
  retryNow(): void {
    if (this.#connection === "down") this.#watch.probeNow();
    else this.#reload();
  }

  // --- prompts and votes (session-actions.ts) --------------------------------------------------------

  /** Sends a message; true when the daemon took it (the caller then clears the box). */
  send(text: string): Promise<boolean> {
    return sendPrompt(this.#actionHost(), text);
  }

  cancel(): Promise<void> {
    return cancelPrompt(this.#actionHost());
  }

  /** Answers a question or approval. The card shows `cardState(requestId)` meanwhile. */
  vote(requestId: string, option: PermissionOption, answers?: Record<string, string>): Promise<void> {
    return sendVote(this.#actionHost(), requestId, option, answers);
  }

  #actionHost(): ActionHost {
    return {
      api: this.#deps.api,
      drafts: this.#deps.drafts,
      sessionId: this.#sessionId,
      clientId: this.#clientId,
      canAct: this.canAct,
      model: this.#model,
      unreachable: (detail) => this.#enterOutage(detail),
      recover: (restarted) => void this.#recover(restarted),
      sent: (text) => {
        // A new session is named after its first message (the daemon's list says the same a moment later).
        if (this.#title === NEW_SESSION_TITLE) this.#title = firstLine(text);
        this.#emit({ type: "status" });
        this.#emit({ type: "list-changed" });
      },
    };
  }

  // --- entering a session, following it, getting it back ---------------------------------------------

  async #load(sessionId: string, title: string | undefined, reason: OpenReason): Promise<void> {
    const sameSession = this.#sessionId === sessionId;
    // Remember what was waiting, so a question asked again after the reload is recognised.
    const keys = new Set(sameSession ? this.interactions.map((i) => i.key) : []);
    this.#setConnection("opening");
    try {
      const hint = this.#deps.clientIds.get(sessionId) ?? this.#deps.freshClientId();
      const res = await this.#deps.api.request<OpenSessionResponse>(
        "POST",
        sessionPath(sessionId, "load"),
        {},
        hint,
      );
      const restarted =
        (reason.kind === "pick" && reason.onDisk) || (reason.kind === "recover" && reason.restarted);
      this.#enter(res, title ?? (sameSession ? this.#title : `Session ${sessionId.slice(0, 8)}`), {
        keys,
        restarted,
      });
      if (reason.kind === "recover") {
        this.#model.reloaded(
          reason.restarted
            ? "The daemon restarted. Reloaded this session from its saved history."
            : "Reloaded this session: its live updates could not be resumed.",
        );
      }
      this.#emit({ type: "list-changed" });
    } catch (error) {
      if (isUnreachable(error)) {
        this.#sessionId ??= sessionId;
        this.#enterOutage(describe(error));
        return;
      }
      this.#setConnection(this.#sessionId ? "ended" : "idle");
      this.#failed(error, `Could not open the session: ${describe(error)}`, {
        label: "Try again",
        run: () => void this.open(sessionId, title, reason),
      });
    }
  }

  /** A create (AttachResponse) or a load (OpenSessionResponse, with the replay and the cursor). */
  #enter(
    res: AttachResponse & Partial<OpenSessionResponse>,
    title: string,
    restore: RestoreHint | undefined,
  ): void {
    this.#stream?.close();
    this.#stream = undefined;
    this.#watch.stop();
    if (this.#sessionId && this.#clientId && this.#sessionId !== res.sessionId) {
      this.#deps.detach?.(this.#sessionId, this.#clientId, false);
    }
    this.#sessionId = String(res.sessionId);
    this.#clientId = typeof res.clientId === "string" ? res.clientId : undefined;
    if (this.#clientId) this.#deps.clientIds.set(this.#sessionId, this.#clientId);
    this.#title = title;
    this.#dead = false;
    this.#banner = undefined;
    this.#detail = undefined;
    this.#model = this.#newModel(res.hasActivePrompt === true);
    this.#emit({ type: "reset" });
    for (const ev of replayFrames(res.compactedReplay)) this.#apply(ev, false);
    if (restore) this.#model.expectRestore(restore);
    // Resume right after what the response covered; a brand-new session has seen nothing yet (cursor 0).
    this.#subscribe(typeof res.lastEventId === "number" ? res.lastEventId : 0, res.eventEpoch);
  }

  #newModel(active: boolean): SessionModel {
    return new SessionModel(
      (e) => this.#emit(e),
      {
        workspace: () => this.#workspace,
        clientId: () => this.#clientId,
        forget: (key) => {
          if (this.#sessionId) this.#deps.drafts.clearSelection(this.#sessionId, key);
        },
      },
      active,
    );
  }

  #apply(ev: DaemonEvent, live: boolean): void {
    const outcome = this.#model.apply(ev, live);
    if (outcome === "closed") this.#dead = true;
    if (outcome === "agent_stopped") {
      this.#dead = true;
      this.#setBanner({
        tone: "error",
        text: "The agent process stopped. Reloading the session starts a new one from the saved history.",
        action: { label: "Reload session", run: () => this.#reload() },
      });
    }
  }

  #subscribe(lastEventId: number | undefined, epoch: string | undefined): void {
    this.#stream?.close();
    const sessionId = this.#sessionId as string;
    const stream = this.#deps.openStream({
      url: sessionPath(sessionId, "events"),
      headers: () => this.#deps.api.headers(this.#clientId),
      ...(lastEventId !== undefined ? { lastEventId } : {}),
      ...(epoch !== undefined ? { epoch } : {}),
      onEvent: (ev) => {
        if (this.#stream === stream) this.#apply(ev, true);
      },
      onState: (state, detail) => {
        if (this.#stream !== stream) return;
        if (state === "unreachable") this.#enterOutage(detail);
        else if (state === "live") {
          if (this.#connection === "down") this.#leaveOutage();
          this.#setConnection("live");
        } else if (this.#connection !== "down") this.#setConnection(state, detail);
      },
      onEnd: (end) => {
        if (this.#stream !== stream) return;
        this.#stream = undefined;
        this.#streamEnded(end);
      },
    });
    this.#stream = stream;
    this.#setConnection("connecting");
  }

  #streamEnded(end: StreamEnd): void {
    this.#watch.stop();
    if (this.#banner?.tone === "outage") this.#banner = undefined;
    if (end.kind === "closed") this.#setConnection("closed");
    else if (end.kind === "unauthorized") this.#emit({ type: "token-needed" });
    else if (end.kind === "gone" && this.#dead) this.#setConnection("ended");
    else if (end.kind === "gone") void this.#recover(true);
    else if (end.kind === "resync" && end.reason === "ring_evicted") void this.#catchUpFromTranscript();
    else if (end.kind === "resync") void this.#recover(end.reason === "epoch_changed");
    else {
      this.#setConnection("ended");
      this.#setBanner({
        tone: "error",
        text: `Live updates stopped: ${end.reason ?? end.status ?? "refused"}.`,
        action: { label: "Reconnect", run: () => this.#reload() },
      });
    }
  }

  /** Reloads the open session after something a reconnect cannot fix; bounded (see RecoveryBudget). */
  async #recover(restarted: boolean): Promise<void> {
    const sessionId = this.#sessionId;
    if (!sessionId) return;
    if (!this.#budget.take(this.#deps.clock.now())) {
      this.#setConnection("ended");
      this.#setBanner({
        tone: "error",
        text: "Lost this session's live updates several times in a row.",
        action: { label: "Reload session", run: () => this.#reload() },
      });
      return;
    }
    await this.open(sessionId, this.#title, { kind: "recover", restarted });
  }

  #reload(): void {
    this.#budget.reset();
    if (this.#sessionId) void this.open(this.#sessionId, this.#title, { kind: "reload" });
  }

  /**
   * Our cursor fell out of the daemon's event ring: a reload would hand back the same cursor, so rebuild
   * from the saved transcript and follow from now. Without a cursor the daemon sends the pending requests
   * first, so no card is lost.
   */
  async #catchUpFromTranscript(): Promise<void> {
    const sessionId = this.#sessionId;
    if (!sessionId) return;
    try {
      const path = sessionPath(sessionId, "transcript");
      const res = await this.#deps.api.request<TranscriptResponse>("GET", path, undefined, this.#clientId);
      if (this.#sessionId !== sessionId) return;
      this.#model = this.#newModel(this.#model.prompts.busy);
      this.#emit({ type: "reset" });
      for (const ev of replayFrames(res.events)) this.#apply(ev, false);
      this.#model.note("notice", "Missed live updates were too old to replay; showing the saved history.");
      this.#subscribe(undefined, undefined);
    } catch (error) {
      if (isUnreachable(error)) this.#enterOutage(describe(error));
      else await this.#recover(false);
    }
  }

  // --- the daemon going away and coming back ---------------------------------------------------------

  #enterOutage(detail: string | undefined): void {
    this.#detail = detail;
    if (this.#connection !== "down") {
      this.#connection = "down";
      this.#banner = {
        tone: "outage",
        text: OUTAGE_TEXT,
        action: { label: "Retry now", run: () => this.retryNow() },
      };
      this.#emit({ type: "announce", text: "The daemon cannot be reached." });
    }
    this.#watch.start();
    this.#emit({ type: "status" });
  }

  #leaveOutage(): void {
    this.#watch.stop();
    if (this.#banner?.tone === "outage") this.#banner = undefined;
    this.#connection = this.#stream ? "reconnecting" : this.#sessionId ? "ended" : "idle";
    this.#emit({ type: "status" });
  }

  /** /health answers again: reconnect at once instead of at the stream's next backoff. */
  #daemonBack(): void {
    if (this.#connection !== "down") return;
    if (this.#stream) {
      // The stream decides what comes next: live again (a network blip) or 404 (a restarted daemon).
      this.#setConnection("reconnecting");
      this.#stream.wake();
      return;
    }
    this.#leaveOutage();
    if (!this.#workspace) void this.connect().then(() => this.#emit({ type: "list-changed" }));
    else if (this.#sessionId) void this.#recover(true);
  }

  // --- small helpers --------------------------------------------------------------------------------

  #failed(error: unknown, text: string, action?: Banner["action"]): void {
    if (isUnauthorized(error)) this.#emit({ type: "token-needed" });
    else if (isUnreachable(error)) this.#enterOutage(describe(error));
    else this.#setBanner(action ? { tone: "error", text, action } : { tone: "error", text });
  }

  #setConnection(connection: Connection, detail?: string): void {
    this.#connection = connection;
    this.#detail = detail;
    this.#emit({ type: "status" });
  }

  #setBanner(banner: Banner | undefined): void {
    this.#banner = banner;
    this.#emit({ type: "status" });
  }

  #emit(event: ControllerEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        // A broken view must not stop the session's state from moving on.
        console.error(`qwen web: a view failed on ${event.type}`, error);
      }
    }
  }
}

function firstLine(text: string): string {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/** A replay's frames (a load's `compactedReplay`, a transcript's `events`): session events, typed loosely there. */
function replayFrames(frames: unknown): DaemonEvent[] {
  return Array.isArray(frames) ? (frames as DaemonEvent[]) : [];
}
