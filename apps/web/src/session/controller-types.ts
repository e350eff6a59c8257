// What the session controller is given (everything with a side effect, so tests pass fakes) and what it
// tells its views.
import type { TimelineItem } from "../conversation/timeline.js";
import type { Drafts } from "../interactions/drafts.js";
import type { Interaction } from "../interactions/interaction.js";
import type { Api } from "../net/api.js";
import type { EventStream, EventStreamOptions } from "../net/event-stream.js";
import type { AnswerMemory } from "./answer-memory.js";

export type StreamOptions = Omit<EventStreamOptions, "fetch" | "sleep">;

export type Clock = {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
};

export type ControllerDeps = {
  api: Api;
  clientIds: { get(sessionId: string): string | undefined; set(sessionId: string, clientId: string): void };
  drafts: Drafts;
  clock: Clock;
  /** Opens a session's live event stream (production: `openEventStream` over the page's fetch). */
  openStream: (options: StreamOptions) => EventStream;
  /** A well-formed client id to offer on a load when we hold none for the session. */
  freshClientId: () => string;
  /** This browser's device id: an answer naming it was given by the person here, in any tab. */
  device?: string;
  /** The answer lines the conversation showed, kept so a reload or a restart shows them again. */
  answers?: AnswerMemory;
  /** Best-effort detach when leaving a session (`keepalive` when the page is going away). */
  detach?: (sessionId: string, clientId: string, leaving: boolean) => void;
};

/**
 * - `idle`: no session open; `opening`: a create/load is in flight;
 * - `connecting` / `live` / `reconnecting`: the live event stream (reconnecting: the daemon answered, not
 *   with events yet);
 * - `down`: the daemon cannot be reached (nothing can be sent; drafts are kept);
 * - `closed`: the session was closed; `ended`: its agent stopped, or the stream was refused.
 */
export type Connection =
  | "idle"
  | "opening"
  | "connecting"
  | "live"
  | "reconnecting"
  | "down"
  | "closed"
  | "ended";

export type BannerAction = { label: string; run: () => void };
/** `short`: the same in a few words, for a phone's one-line banner. */
export type Banner = {
  tone: "outage" | "error" | "info";
  text: string;
  short?: string;
  action?: BannerAction;
};

/** Per-card state the view shows: a vote in flight, the last failure, a partial tally. */
export type CardState = { sending: boolean; error?: string; status?: string };

export type ControllerEvent =
  /** The conversation and the waiting cards were cleared (another session, or a reload). */
  | { type: "reset" }
  | { type: "item"; item: TimelineItem }
  /** The queued messages changed (controller.queued). */
  | { type: "queue" }
  | { type: "interaction-added"; interaction: Interaction; live: boolean }
  | { type: "interaction-changed"; interaction: Interaction }
  | { type: "interaction-removed"; requestId: string }
  /** Connection, busy, banner, title or the open session changed. */
  | { type: "status" }
  /** A question or approval arrived live: worth a notification when nobody is looking. */
  | { type: "attention"; interaction: Interaction }
  | { type: "announce"; text: string }
  /** Something the session list shows changed. */
  | { type: "list-changed" }
  | { type: "token-needed" };

export type Listener = (event: ControllerEvent) => void;

/** How a session is being opened, which decides what the page says when a question comes back. */
export type OpenReason =
  /** The person picked it; `onDisk`: the list said the daemon did not have it live (a restart since). */
  | { kind: "pick"; onDisk: boolean }
  /** We lost it (the daemon restarted, ids were reset): reloaded on our own. */
  | { kind: "recover"; restarted: boolean }
  /** The person asked for a reload (banner button). */
  | { kind: "reload" };
