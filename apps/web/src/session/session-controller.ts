// The open session's lifecycle, in one place: creating and loading it, its live events, the questions and
// approvals it waits on, sending prompts and votes, and getting it back after the daemon went away. Views
// read its state and listen to its events; it knows nothing of the DOM. Everything with a side effect (the
// API, client ids, drafts, the clock, the event stream) is passed in, so tests drive it with fakes.

import { ActivePrompts } from "../conversation/active-prompts.js";
import { type NoteItem, Timeline, type TimelineItem } from "../conversation/timeline.js";
import type { PermissionOption, Selection } from "../interactions/answers.js";
import { type Interaction, interactionKey, interactionOf } from "../interactions/interaction.js";
import { ApiError, sessionPath } from "../net/api.js";
import { describe, isSessionLost, isUnauthorized, isUnreachable } from "../net/api-errors.js";
import type { DaemonEvent, Loose, PermissionRequest } from "../net/daemon-event.js";
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
import { answerItemFields, type Resolution } from "./resolution.js";

const NEW_SESSION_TITLE = "New session";
export const ASKED_AGAIN = "The daemon restarted; the agent is asking you again.";
const OUTAGE_TEXT =
  "The daemon cannot be reached. Sending and answering are paused until it is back; what you typed is kept.";

/** What the next permission requests are compared with to tell "asked again" from "asked". */
type RestoreContext = { keys: Set<string>; calls: Set<string>; restarted: boolean; told: boolean };

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
  #timeline = new Timeline();
  #prompts = new ActivePrompts();
  #interactions = new Map<string, Interaction>();
  #cards = new Map<string, CardState>();
  /** Answers of votes in flight, by request id: the resolved event may arrive before the vote's 200. */
  #votes = new Map<string, Record<string, string> | undefined>();
  #restore: RestoreContext | undefined;
  /** The "reloaded" line of the last recovery, while it may still turn into "asking you again". */
  #reloadNote: NoteItem | undefined;
  #opening: Promise<void> | undefined;
  #openingId: string | undefined;

  constructor(deps: ControllerDeps) {
    this.#deps = deps;
    this.#watch = new DaemonWatch(deps.api, deps.clock, () => this.#daemonBack());
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
    return this.#prompts.busy;
  }
  get dead(): boolean {
    return this.#dead;
  }
  /** A message or an answer can be sent now (a session is open, its agent alive, the daemon reachable). */
  get canAct(): boolean {
    return (
      this.#sessionId !== undefined &&
      !this.#dead &&
      this.#connection !== "down" &&
      this.#connection !== "opening" &&
      this.#connection !== "closed" &&
      this.#connection !== "ended"
    );
  }
  get items(): readonly TimelineItem[] {
    return this.#timeline.items;
  }
  get interactions(): Interaction[] {
    return [...this.#interactions.values()];
  }
  cardState(requestId: string): CardState {
    return this.#cards.get(requestId) ?? { sending: false };
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

  // --- the daemon -----------------------------------------------------------------------------------

  /** Reads the daemon's capabilities (its workspace). False when it must wait (down, or a token needed). */
  async connect(): Promise<boolean> {
    try {
      const caps = await this.#deps.api.request("GET", "/capabilities");
      this.#workspace = typeof caps.workspaceCwd === "string" ? caps.workspaceCwd : undefined;
      if (this.#connection === "down") this.#leaveOutage();
      this.#emit({ type: "status" });
      return true;
    } catch (error) {
      if (isUnauthorized(error)) this.#emit({ type: "token-needed" });
      else if (isUnreachable(error)) this.#enterOutage(describe(error));
      else this.#setBanner({ tone: "error", text: `The daemon refused: ${describe(error)}` });
      return false;
    }
  }

  // --- opening sessions -----------------------------------------------------------------------------

  /** Creates a session and opens it. */
  async create(): Promise<boolean> {
    try {
      const res = await this.#deps.api.request("POST", "/session", { sessionScope: "thread" });
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
      const sameSession = this.#sessionId === sessionId;
      // Remember what was waiting, so a question asked again after the reload is recognised.
      const keys = sameSession
        ? new Set([...this.#interactions.values()].map((i) => i.key))
        : new Set<string>();
      this.#setConnection("opening");
      try {
        const hint = this.#deps.clientIds.get(sessionId) ?? this.#deps.freshClientId();
        const res = await this.#deps.api.request("POST", sessionPath(sessionId, "load"), {}, hint);
        const restarted =
          (reason.kind === "pick" && reason.onDisk) || (reason.kind === "recover" && reason.restarted);
        this.#enter(res, title ?? (sameSession ? this.#title : `Session ${sessionId.slice(0, 8)}`), {
          keys,
          restarted,
        });
        if (reason.kind === "recover") {
          const text = reason.restarted
            ? "The daemon restarted. Reloaded this session from its saved history."
            : "Reloaded this session: its live updates could not be resumed.";
          this.#reloadNote = this.#timeline.note("notice", text);
          this.#item(this.#reloadNote);
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

  /** Stops following the open session (the page is going away, or another session is opened). */
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

  /** The banner's button while the daemon is away: look for it now instead of at the next probe. */
  retryNow(): void {
    if (this.#connection === "down") this.#watch.probeNow();
    else if (this.#sessionId) void this.open(this.#sessionId, this.#title, { kind: "reload" });
  }

  // --- prompts and votes ----------------------------------------------------------------------------

  /** Sends a message; true when the daemon took it (the caller then clears the box). */
  async send(text: string): Promise<boolean> {
    const sessionId = this.#sessionId;
    if (!text.trim() || !sessionId || !this.canAct) return false;
    try {
      const res = await this.#deps.api.request(
        "POST",
        sessionPath(sessionId, "prompt"),
        { prompt: [{ type: "text", text }] },
        this.#clientId,
      );
      if (typeof res.promptId === "string") this.#prompts.started(res.promptId);
      this.#deps.drafts.setComposer(sessionId, "");
      // A new session is named after its first message (the daemon's list says the same a moment later).
      if (this.#title === NEW_SESSION_TITLE) this.#title = firstLine(text);
      this.#emit({ type: "status" });
      this.#emit({ type: "list-changed" });
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.code === "prompt_queue_full") {
        this.#note("error", "The agent already has a full queue of messages; try again in a moment.");
      } else if (isUnreachable(error)) {
        this.#enterOutage(describe(error));
      } else if (isSessionLost(error) || (error instanceof ApiError && error.code === "invalid_client_id")) {
        this.#note(
          "error",
          "This session has to be reloaded first; your message is kept. Send it again then.",
        );
        void this.#recover(isSessionLost(error));
      } else {
        this.#note("error", `Could not send: ${describe(error)}`);
      }
      return false;
    }
  }

  async cancel(): Promise<void> {
    if (!this.#sessionId) return;
    try {
      await this.#deps.api.request("POST", sessionPath(this.#sessionId, "cancel"), {}, this.#clientId);
    } catch (error) {
      if (isUnreachable(error)) this.#enterOutage(describe(error));
      else this.#note("error", `Could not stop the turn: ${describe(error)}`);
    }
  }

  /** Answers a question or approval. The card shows `cardState(requestId)` meanwhile. */
  async vote(requestId: string, option: PermissionOption, answers?: Record<string, string>): Promise<void> {
    const sessionId = this.#sessionId;
    const interaction = this.#interactions.get(requestId);
    if (!sessionId || !interaction || !this.canAct) return;
    this.#setCard(requestId, { sending: true });
    this.#votes.set(requestId, answers);
    try {
      await this.#deps.api.request(
        "POST",
        sessionPath(sessionId, `permission/${encodeURIComponent(requestId)}`),
        { outcome: { outcome: "selected", optionId: option.optionId }, ...(answers ? { answers } : {}) },
        this.#clientId,
      );
      // 200 means the answer is durable: the card can go even if the resolved event is still on its way.
      this.#resolve(requestId, {
        outcome: { outcome: "selected", optionId: option.optionId },
        voterClientId: this.#clientId,
        ...(answers ? { answers } : {}),
      });
    } catch (error) {
      this.#votes.delete(requestId);
      if (!this.#interactions.has(requestId)) return;
      if (isUnreachable(error)) {
        this.#setCard(requestId, {
          sending: false,
          error: "The daemon cannot be reached; your choice is kept.",
        });
        this.#enterOutage(describe(error));
      } else if (isSessionLost(error)) {
        this.#setCard(requestId, {
          sending: false,
          error: "The session is being reloaded; your choice is kept.",
        });
        void this.#recover(true);
      } else if (error instanceof ApiError && error.status === 404) {
        // Someone else answered, or the daemon re-asked it under a new id: the event stream says which.
        this.#removeInteraction(requestId);
        this.#note("notice", "That request was already answered or is no longer waiting.");
      } else {
        if (error instanceof ApiError && error.code === "invalid_client_id") void this.#recover(false);
        this.#setCard(requestId, { sending: false, error: `Could not send your answer: ${describe(error)}` });
      }
    }
  }

  // --- events ---------------------------------------------------------------------------------------

  #handle(ev: DaemonEvent, live: boolean): void {
    const d = ev.data ?? {};
    switch (ev.type) {
      case "session_update":
        this.#item(this.#timeline.sessionUpdate(d.update, ev.promptId));
        break;
      case "permission_request":
        this.#addInteraction(d as PermissionRequest, live);
        break;
      case "permission_resolved":
      case "permission_already_resolved":
        this.#resolve(String(d.requestId), d as Resolution);
        break;
      case "permission_partial_vote":
        if (this.#interactions.has(d.requestId)) {
          this.#setCard(d.requestId, {
            sending: false,
            status: `${d.votesReceived} of ${d.votesNeeded} votes so far.`,
          });
        }
        break;
      case "permission_forbidden":
        if (this.#interactions.has(d.requestId)) {
          this.#setCard(d.requestId, {
            sending: false,
            error: `Your vote was not accepted (${d.reason ?? "forbidden"}).`,
          });
        }
        break;
      case "turn_complete":
        if (d.stopReason && d.stopReason !== "end_turn") this.#note("notice", `Turn ended: ${d.stopReason}.`);
        if (live) this.#emit({ type: "announce", text: "The agent finished." });
        break;
      case "turn_error":
        this.#note(
          "error",
          `The turn failed: ${d.message ?? "unknown error"}${d.code ? ` (${d.code})` : ""}`,
        );
        if (live) this.#emit({ type: "announce", text: "The turn failed." });
        break;
      case "prompt_cancelled":
        this.#note("notice", "Stopped.");
        break;
      case "session_died":
        this.#dead = true;
        this.#dropInteractions();
        this.#note("error", `The agent process for this session stopped${d.reason ? ` (${d.reason})` : ""}.`);
        this.#setBanner({
          tone: "error",
          text: "The agent process stopped. Reloading the session starts a new one from the saved history.",
          action: { label: "Reload session", run: () => this.#reload() },
        });
        break;
      case "session_closed":
        this.#dead = true;
        this.#dropInteractions();
        this.#note("notice", "This session was closed.");
        break;
      default:
        break;
    }
    this.#prompts.observe(ev);
    this.#emit({ type: "status" });
    if (live && LIST_EVENTS.has(ev.type)) this.#emit({ type: "list-changed" });
  }

  #addInteraction(request: PermissionRequest, live: boolean): void {
    if (!request?.requestId || this.#interactions.has(request.requestId)) return;
    const key = interactionKey(request);
    const toolCallId = request.toolCall?.toolCallId;
    const ctx = this.#restore;
    const restored =
      ctx !== undefined &&
      (ctx.keys.has(key) || (ctx.restarted && typeof toolCallId === "string" && ctx.calls.has(toolCallId)));
    const interaction = interactionOf(request, this.#workspace, restored);
    if (restored && ctx && !ctx.told) {
      ctx.told = true;
      // One line says it all: the reload notice, if nothing came after it, becomes "asking you again".
      const reloadNote = this.#reloadNote;
      if (reloadNote && this.#timeline.items.at(-1) === reloadNote) {
        reloadNote.text = ASKED_AGAIN;
        this.#item(reloadNote);
      } else this.#note("notice", ASKED_AGAIN);
    }
    this.#interactions.set(request.requestId, interaction);
    this.#emit({ type: "interaction-added", interaction, live });
    if (!live) return;
    this.#emit({ type: "attention", interaction });
    this.#emit({
      type: "announce",
      text: restored
        ? ASKED_AGAIN
        : interaction.kind === "question"
          ? "The agent asks you a question."
          : "The agent asks for your approval.",
    });
  }

  /** A question or approval ended: the card goes, the conversation says how it ended. */
  #resolve(requestId: string, resolution: Resolution): void {
    const interaction = this.#interactions.get(requestId);
    if (!interaction) return;
    const answers = resolution.answers ?? this.#votes.get(requestId);
    const fields = answerItemFields(
      interaction,
      { ...resolution, ...(answers ? { answers } : {}) },
      this.#clientId,
    );
    if (!this.#timeline.get(`answer:${requestId}`)) this.#item(this.#timeline.answer(fields));
    if (this.#sessionId) this.#deps.drafts.clearSelection(this.#sessionId, interaction.key);
    this.#removeInteraction(requestId);
  }

  #removeInteraction(requestId: string): void {
    if (!this.#interactions.delete(requestId)) return;
    this.#cards.delete(requestId);
    this.#votes.delete(requestId);
    this.#emit({ type: "interaction-removed", requestId });
    this.#emit({ type: "status" });
  }

  /** Nothing can answer these any more (the agent stopped); a reload asks again what is still open. */
  #dropInteractions(): void {
    for (const requestId of [...this.#interactions.keys()]) this.#removeInteraction(requestId);
  }

  // --- entering a session, following it, getting it back ---------------------------------------------

  #enter(res: Loose, title: string, restore: { keys: Set<string>; restarted: boolean } | undefined): void {
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
    this.#timeline = new Timeline();
    this.#interactions.clear();
    this.#cards.clear();
    this.#votes.clear();
    this.#restore = undefined;
    this.#reloadNote = undefined;
    this.#prompts.reset(res.hasActivePrompt === true);
    this.#emit({ type: "reset" });
    for (const ev of Array.isArray(res.compactedReplay) ? res.compactedReplay : []) this.#handle(ev, false);
    if (restore) {
      // Tool calls the saved history leaves unfinished: a question among them was waiting when it stopped.
      const calls = new Set(
        this.#timeline.items.flatMap((i) =>
          i.kind === "tool" && (i.status === "pending" || i.status === "in_progress") ? [i.toolCallId] : [],
        ),
      );
      this.#restore = { keys: restore.keys, calls, restarted: restore.restarted, told: false };
    }
    // Resume right after what the response covered; a brand-new session has seen nothing yet (cursor 0).
    this.#subscribe(typeof res.lastEventId === "number" ? res.lastEventId : 0, res.eventEpoch);
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
        if (this.#stream === stream) this.#handle(ev, true);
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
    const wasDown = this.#connection === "down";
    this.#watch.stop();
    if (wasDown) this.#banner = undefined;
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
      const res = await this.#deps.api.request(
        "GET",
        sessionPath(sessionId, "transcript"),
        undefined,
        this.#clientId,
      );
      if (this.#sessionId !== sessionId) return;
      this.#timeline = new Timeline();
      this.#interactions.clear();
      this.#cards.clear();
      this.#emit({ type: "reset" });
      for (const ev of Array.isArray(res.events) ? res.events : []) this.#handle(ev, false);
      this.#note("notice", "Missed live updates were too old to replay; showing the saved history.");
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

  #setCard(requestId: string, state: CardState): void {
    this.#cards.set(requestId, state);
    const interaction = this.#interactions.get(requestId);
    if (interaction) this.#emit({ type: "interaction-changed", interaction });
  }

  #note(kind: "notice" | "error", text: string): void {
    this.#item(this.#timeline.note(kind, text));
  }

  #item(item: TimelineItem | undefined): void {
    if (item) this.#emit({ type: "item", item });
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

const LIST_EVENTS = new Set([
  "permission_request",
  "permission_resolved",
  "turn_complete",
  "turn_error",
  "session_died",
  "session_closed",
]);

function firstLine(text: string): string {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
