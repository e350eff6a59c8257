// The open session's lifecycle, in one place: creating and loading it, its live events, sending prompts and
// votes, and getting it back after the daemon went away. Beside it: what the session holds (conversation,
// waiting cards: session-model.ts), what is sent (session-actions.ts), the link to the daemon and its
// banner (connection-status.ts), getting the session back (session-recovery.ts), one load at a time
// (open-gate.ts). Views read it and listen to its events (view-listeners.ts); it knows nothing of the DOM. Everything with a side effect (the API, client ids, drafts, the clock, the event stream) is passed
// in, so tests drive it with fakes.

import type { AttachResponse, OpenSessionResponse, SessionConfigOption } from "@qwen-daemon/core/protocol";
import type { QueuedMessage } from "../conversation/queued-prompts.js";
import type { TimelineItem } from "../conversation/timeline.js";
import type { PermissionOption, Selection } from "../interactions/answers.js";
import type { Interaction } from "../interactions/interaction.js";
import { describe, isUnauthorized, isUnreachable } from "../net/api-errors.js";
import type { DaemonEvent } from "../net/daemon-event.js";
import type { EventStream } from "../net/event-stream.js";
import { callRoute, routeUrl } from "../net/routes.js";
import { ConnectionStatus } from "./connection-status.js";
import type {
  Banner,
  CardState,
  Connection,
  ControllerDeps,
  Listener,
  OpenReason,
} from "./controller-types.js";
import { DaemonWatch } from "./daemon-watch.js";
import { OpenGate } from "./open-gate.js";
import {
  type ActionHost,
  cancelPrompt,
  firstLine,
  sendPrompt,
  sendVote,
  withdrawPrompt,
} from "./session-actions.js";
import { type AdminHost, deleteSession, renameSession, setSessionOption } from "./session-admin.js";
import { type RestoreHint, SessionModel } from "./session-model.js";
import { replayFrames, SessionRecovery } from "./session-recovery.js";
import { ViewListeners } from "./view-listeners.js";

export { ASKED_AGAIN } from "./session-model.js";

const NEW_SESSION_TITLE = "New session";
const NO_SESSION_TITLE = "No session open";

export class SessionController {
  readonly #deps: ControllerDeps;
  readonly #listeners = new ViewListeners();
  readonly #recovery: SessionRecovery;
  readonly #watch: DaemonWatch;
  #sessionId: string | undefined;
  #clientId: string | undefined;
  /** The session's name from this page or the daemon's list; the agent's own title, when it gave one, wins. */
  #title = NO_SESSION_TITLE;
  #workspace: string | undefined;
  /** The daemon's permission policy (`GET /capabilities`): `consensus` means several people answer. */
  #policy: string | undefined;
  readonly #status: ConnectionStatus;
  #dead = false;
  #stream: EventStream | undefined;
  #model: SessionModel;
  readonly #opens = new OpenGate();

  constructor(deps: ControllerDeps) {
    this.#deps = deps;
    this.#watch = new DaemonWatch(deps.api, deps.clock, () => this.#daemonBack());
    this.#status = new ConnectionStatus((event) => this.#listeners.emit(event), this.#watch);
    this.#recovery = new SessionRecovery({
      api: deps.api,
      clock: deps.clock,
      status: this.#status,
      sessionId: () => this.#sessionId,
      clientId: () => this.#clientId,
      title: () => this.#title,
      dead: () => this.#dead,
      open: (sessionId, title, reason) => this.open(sessionId, title, reason),
      rebuild: (events) => this.#rebuild(events),
      enterOutage: (detail) => this.#enterOutage(detail),
      emit: (event) => this.#listeners.emit(event),
    });
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
    return this.#model.agentTitle ?? this.#title;
  }
  get workspace(): string | undefined {
    return this.#workspace;
  }
  /** The title the agent gave the open session, if it gave one (and nobody renamed it since). */
  get agentTitle(): string | undefined {
    return this.#model.agentTitle;
  }
  /** The open session's options as its agent reports them (ours: `mode` and `model`). */
  get configOptions(): readonly SessionConfigOption[] {
    return this.#model.configOptions;
  }
  get connection(): Connection {
    return this.#status.connection;
  }
  /** Why the connection is what it is (an error message), if known. */
  get connectionDetail(): string | undefined {
    return this.#status.detail;
  }
  get banner(): Banner | undefined {
    return this.#status.banner;
  }
  get busy(): boolean {
    return this.#model.prompts.busy;
  }
  get dead(): boolean {
    return this.#dead;
  }
  /** A message or an answer can be sent now (a session is open, its agent alive, the daemon reachable). */
  get canAct(): boolean {
    const c = this.#status.connection;
    return (
      this.#sessionId !== undefined && !this.#dead && !["down", "opening", "closed", "ended"].includes(c)
    );
  }
  get items(): readonly TimelineItem[] {
    return this.#model.timeline.items;
  }
  /** Messages waiting in the daemon's queue, in its order. */
  get queued(): QueuedMessage[] {
    return this.#model.queue.list();
  }
  get interactions(): Interaction[] {
    return [...this.#model.interactions.values()];
  }
  cardState(requestId: string): CardState {
    return this.#model.cards.get(requestId) ?? { sending: false };
  }

  subscribe(listener: Listener): () => void {
    return this.#listeners.add(listener);
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
      const caps = await callRoute(this.#deps.api, "capabilities", { params: {} });
      this.#workspace = typeof caps.workspaceCwd === "string" ? caps.workspaceCwd : undefined;
      this.#policy = typeof caps.policy?.permission === "string" ? caps.policy.permission : undefined;
      if (this.#status.down) this.#leaveOutage();
      this.#listeners.emit({ type: "status" });
      return true;
    } catch (error) {
      this.#failed(error, `The daemon refused: ${describe(error)}`);
      return false;
    }
  }

  async create(): Promise<boolean> {
    try {
      const res = await callRoute(this.#deps.api, "createSession", {
        params: {},
        body: { sessionScope: "thread" },
      });
      this.#enter(res, NEW_SESSION_TITLE, undefined);
      this.#listeners.emit({ type: "list-changed" });
      return true;
    } catch (error) {
      this.#failed(error, `Could not create a session: ${describe(error)}`);
      return false;
    }
  }

  /**
   * Loads a session and follows it, one load at a time (open-gate.ts).
   */
  open(
    sessionId: string,
    title?: string,
    reason: OpenReason = { kind: "pick", onDisk: false },
  ): Promise<void> {
    return this.#opens.run(sessionId, () => this.#load(sessionId, title, reason));
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
    this.#listeners.emit({ type: "status" });
  }

  /** Names the open session (the daemon keeps the name); true when it did. */
  async rename(name: string): Promise<boolean> {
    const displayName = await renameSession(this.#adminHost(), name);
    if (displayName === undefined) return false;
    // A person's name outranks the agent's title from now on.
    this.#model.agentTitle = undefined;
    this.#model.named = true;
    this.setTitle(displayName);
    this.#listeners.emit({ type: "list-changed" });
    return true;
  }

  /** Sets one of the session's options (`model`, `mode`) through the daemon; true when it did. */
  async setConfig(configId: string, value: string): Promise<boolean> {
    const sessionId = this.#sessionId;
    const options = await setSessionOption(this.#adminHost(), configId, value);
    if (options !== undefined && this.#sessionId === sessionId) this.#model.configOptions = options;
    this.#listeners.emit({ type: "status" });
    return options !== undefined;
  }

  /** The open session can be deleted now: one is open and the daemon is there to delete it. */
  get canDelete(): boolean {
    return this.#sessionId !== undefined && !["down", "opening"].includes(this.#status.connection);
  }

  /**
   * Deletes the open session for good (its transcript and journals go); the page then has no session open.
   * Resolves with the deleted id, or undefined when it was not deleted.
   */
  async deleteSession(): Promise<string | undefined> {
    const sessionId = this.#sessionId;
    if (!sessionId || !(await deleteSession(this.#adminHost()))) return undefined;
    if (this.#sessionId === sessionId) this.#closeView();
    this.#listeners.emit({ type: "list-changed" });
    return sessionId;
  }

  #adminHost(): AdminHost {
    return {
      api: this.#deps.api,
      sessionId: this.#sessionId,
      clientId: this.#clientId,
      canAct: this.canAct,
      canDelete: this.canDelete,
      failed: (error, text) => this.#failed(error, text),
    };
  }

  /** The banner's button: look for the daemon now (while it is away), or reload the session. */
  retryNow(): void {
    if (this.#status.down) this.#watch.probeNow();
    else this.#recovery.reload();
  }

  // --- prompts and votes (session-actions.ts) --------------------------------------------------------

  /** Sends a message; true when the daemon took it (the caller then clears the box). */
  send(text: string): Promise<boolean> {
    return sendPrompt(this.#actionHost(), text);
  }

  /** Takes a queued message back before it starts; true when it was. */
  withdraw(promptId: string): Promise<boolean> {
    return withdrawPrompt(this.#actionHost(), promptId);
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
      recover: (restarted) => void this.#recovery.recover(restarted),
      sent: (text) => {
        // A new session is named after its first message (the daemon's list says the same a moment later).
        if (this.#title === NEW_SESSION_TITLE) this.#title = firstLine(text);
        this.#listeners.emit({ type: "status" });
        this.#listeners.emit({ type: "list-changed" });
      },
    };
  }

  // --- entering a session, following it, getting it back ---------------------------------------------

  async #load(sessionId: string, title: string | undefined, reason: OpenReason): Promise<void> {
    const sameSession = this.#sessionId === sessionId;
    // Remember what was waiting, so a question asked again after the reload is recognised.
    const keys = new Set(sameSession ? this.interactions.map((i) => i.key) : []);
    this.#status.set("opening");
    try {
      const hint = this.#deps.clientIds.get(sessionId) ?? this.#deps.freshClientId();
      const res = await callRoute(this.#deps.api, "loadSession", {
        params: { id: sessionId },
        body: {},
        clientId: hint,
      });
      const restarted =
        (reason.kind === "pick" && reason.onDisk) || (reason.kind === "recover" && reason.restarted);
      this.#enter(res, title ?? (sameSession ? this.#title : "Untitled session"), {
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
      this.#listeners.emit({ type: "list-changed" });
    } catch (error) {
      if (isUnreachable(error)) {
        this.#sessionId ??= sessionId;
        this.#enterOutage(describe(error));
        return;
      }
      this.#status.set(this.#sessionId ? "ended" : "idle");
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
    this.#status.clear();
    this.#model = this.#newModel(res.hasActivePrompt === true);
    this.#model.configOptions = Array.isArray(res.configOptions) ? res.configOptions : [];
    this.#listeners.emit({ type: "reset" });
    for (const ev of replayFrames(res.compactedReplay)) this.#apply(ev, false);
    if (restore) this.#model.expectRestore(restore);
    // Resume right after what the response covered; a brand-new session has seen nothing yet (cursor 0).
    this.#subscribe(typeof res.lastEventId === "number" ? res.lastEventId : 0, res.eventEpoch);
  }

  #newModel(active: boolean): SessionModel {
    return new SessionModel(
      (e) => this.#listeners.emit(e),
      {
        workspace: () => this.#workspace,
        clientId: () => this.#clientId,
        device: () => this.#deps.device,
        people: () => this.#policy === "consensus",
        remember: (toolCallId, record) => {
          if (this.#sessionId) this.#deps.answers?.remember(this.#sessionId, toolCallId, record);
        },
        recall: (toolCallId) =>
          this.#sessionId ? this.#deps.answers?.recall(this.#sessionId, toolCallId) : undefined,
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
      this.#status.setBanner({
        tone: "error",
        text: "The agent process stopped. Reloading the session starts a new one from the saved history.",
        action: { label: "Reload session", run: () => this.#recovery.reload() },
      });
    }
  }

  /** No session open any more (it was deleted): the page says so, and nothing follows the old one. */
  #closeView(): void {
    this.#stream?.close();
    this.#stream = undefined;
    this.#watch.stop();
    this.#sessionId = undefined;
    this.#clientId = undefined;
    this.#title = NO_SESSION_TITLE;
    this.#dead = false;
    this.#status.clear();
    this.#status.set("idle");
    this.#model = this.#newModel(false);
    this.#listeners.emit({ type: "reset" });
    this.#listeners.emit({ type: "queue" });
    this.#listeners.emit({ type: "status" });
  }

  #subscribe(lastEventId: number | undefined, epoch: string | undefined): void {
    this.#stream?.close();
    const sessionId = this.#sessionId as string;
    const stream = this.#deps.openStream({
      url: routeUrl("events", { params: { id: sessionId } }),
      headers: () => this.#deps.api.headers(this.#clientId),
      ...(lastEventId !== undefined ? { lastEventId } : {}),
      ...(epoch !== undefined ? { epoch } : {}),
      onEvent: (ev) => {
        if (this.#stream === stream) this.#apply(ev, true);
      },
      onState: (state, detail) => {
        if (this.#stream === stream) this.#status.streamState(state, detail, () => this.retryNow());
      },
      onEnd: (end) => {
        if (this.#stream !== stream) return;
        this.#stream = undefined;
        this.#status.streamGone();
        this.#recovery.streamEnded(end);
      },
    });
    this.#stream = stream;
    this.#status.set("connecting");
  }

  /** The transcript's events, when a reload could not catch up (session-recovery.ts); then live from now. */
  #rebuild(events: DaemonEvent[]): void {
    const options = this.#model.configOptions;
    this.#model = this.#newModel(this.#model.prompts.busy);
    this.#model.configOptions = options;
    this.#listeners.emit({ type: "reset" });
    for (const ev of events) this.#apply(ev, false);
    this.#model.note("notice", "Missed live updates were too old to replay; showing the saved history.");
    this.#subscribe(undefined, undefined);
  }

  // --- the daemon going away and coming back ---------------------------------------------------------

  #enterOutage(detail: string | undefined): void {
    this.#status.enterOutage(detail, () => this.retryNow());
  }

  #leaveOutage(): void {
    this.#status.leaveOutage(this.#stream ? "reconnecting" : this.#sessionId ? "ended" : "idle");
  }

  /** /health answers again: reconnect at once instead of at the stream's next backoff. */
  #daemonBack(): void {
    if (!this.#status.down) return;
    if (this.#stream) {
      // The stream decides what comes next: live again (a network blip) or 404 (a restarted daemon).
      this.#status.set("reconnecting");
      this.#stream.wake();
      return;
    }
    this.#leaveOutage();
    if (!this.#workspace) void this.connect().then(() => this.#listeners.emit({ type: "list-changed" }));
    else if (this.#sessionId) void this.#recovery.recover(true);
  }

  #failed(error: unknown, text: string, action?: Banner["action"]): void {
    if (isUnauthorized(error)) this.#listeners.emit({ type: "token-needed" });
    else if (isUnreachable(error)) this.#enterOutage(describe(error));
    else this.#status.setBanner(action ? { tone: "error", text, action } : { tone: "error", text });
  }
}
