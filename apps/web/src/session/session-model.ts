// What the open session holds, built from its events (replayed by a load, or live): the conversation, the
// questions and approvals waiting for the person (with each card's state), whether a prompt is running, and
// the "asked again" bookkeeping after a restart. Pure: no I/O; it reports changes through `emit` and tells
// its owner (the controller) when the agent stopped or the session closed.
import type { SessionConfigOption } from "@qwen-daemon/core/protocol";
import { ActivePrompts } from "../conversation/active-prompts.js";
import { QueuedPrompts } from "../conversation/queued-prompts.js";
import { type NoteItem, Timeline, type TimelineItem } from "../conversation/timeline.js";
import { type Interaction, interactionKey, interactionOf } from "../interactions/interaction.js";
import type { DaemonEvent, PermissionRequest } from "../net/daemon-event.js";
import { record } from "../net/read.js";
import type { AnswerRecord } from "./answer-memory.js";
import type { CardState, ControllerEvent } from "./controller-types.js";
import { answerItemFields, type Resolution } from "./resolution.js";
import { agentTitleOf, configOptionsOf } from "./session-updates.js";

export const ASKED_AGAIN = "The daemon restarted; the agent is asking you again.";

/** What the next permission requests are compared with to tell "asked again" from "asked". */
export type RestoreHint = { keys: Set<string>; restarted: boolean };
type RestoreContext = RestoreHint & { calls: Set<string>; told: boolean };

/** What an event means for the session's owner beyond the model itself. */
export type EventOutcome = "agent_stopped" | "closed" | undefined;

const LIST_EVENTS = new Set([
  "permission_request",
  "permission_resolved",
  "turn_complete",
  "turn_error",
  "session_died",
  "session_closed",
  "session_owned_elsewhere",
]);

export class SessionModel {
  readonly timeline = new Timeline();
  readonly prompts = new ActivePrompts();
  /** Messages waiting in the daemon's queue, shown as queued until they start. */
  readonly queue = new QueuedPrompts();
  readonly interactions = new Map<string, Interaction>();
  readonly cards = new Map<string, CardState>();
  /** Answers of votes in flight, by request id: the resolved event may arrive before the vote's 200. */
  readonly votes = new Map<string, Record<string, string> | undefined>();
  /** The title the agent gave the session (ACP `session_info_update`), until a person names it. */
  agentTitle: string | undefined;
  /** A person named the session here: the agent's later titles do not replace that name. */
  named = false;
  /** The session's options as its agent reports them (create/load answers, `config_option_update`). */
  configOptions: SessionConfigOption[] = [];
  #restore: RestoreContext | undefined;
  /** The "reloaded" line of a recovery, while it may still turn into "asking you again". */
  #reloadNote: NoteItem | undefined;

  constructor(
    readonly emit: (event: ControllerEvent) => void,
    readonly context: {
      workspace: () => string | undefined;
      clientId: () => string | undefined;
      /** This browser's device id. */
      device: () => string | undefined;
      /** Several people answer this daemon's questions (resolution.ts `Us.people`). */
      people: () => boolean;
      /** Keeps an answer's record by its tool call, and finds it again (answer-memory.ts). */
      remember: (toolCallId: string, record: AnswerRecord) => void;
      recall: (toolCallId: string) => AnswerRecord | undefined;
      /** A question ended: its kept selection can go. */
      forget: (key: string) => void;
    },
    active: boolean,
  ) {
    this.prompts.reset(active);
  }

  /** After the replay: remember what may be asked again (tool calls the saved history leaves unfinished). */
  expectRestore(hint: RestoreHint): void {
    const calls = new Set(
      this.timeline.items.flatMap((i) =>
        i.kind === "tool" && (i.status === "pending" || i.status === "in_progress") ? [i.toolCallId] : [],
      ),
    );
    this.#restore = { ...hint, calls, told: false };
  }

  /** The notice of a recovery; it becomes "asking you again" if a question asked before comes back next. */
  reloaded(text: string): void {
    this.#reloadNote = this.timeline.note("notice", text);
    this.#item(this.#reloadNote);
  }

  note(kind: "notice" | "error", text: string): void {
    this.#item(this.timeline.note(kind, text));
  }

  setCard(requestId: string, state: CardState): void {
    const interaction = this.interactions.get(requestId);
    if (!interaction) return;
    this.cards.set(requestId, state);
    this.emit({ type: "interaction-changed", interaction });
  }

  /** A message the daemon queued (`mine`: sent from this page). */
  queued(promptId: string, text: string, position: number | undefined, mine: boolean): void {
    if (this.queue.add(promptId, text, position, mine)) this.emit({ type: "queue" });
  }

  /** A queued message started, ended or was taken back. */
  unqueue(promptId: string | undefined): void {
    if (promptId !== undefined && this.queue.remove(promptId)) this.emit({ type: "queue" });
  }

  /** One frame; its data is read leniently (the type is the contract's claim, not a promise). */
  apply(ev: DaemonEvent, live: boolean): EventOutcome {
    let outcome: EventOutcome;
    switch (ev.type) {
      case "session_update":
        // The daemon echoes a prompt when it starts: a queued one is a sent one from here on.
        if (ev.data?.update?.sessionUpdate === "user_message_chunk") this.unqueue(ev.promptId);
        if (!this.named) this.agentTitle = agentTitleOf(ev.data?.update) ?? this.agentTitle;
        this.configOptions = configOptionsOf(ev.data?.update) ?? this.configOptions;
        this.#toolUpdate(ev.data?.update, ev.promptId);
        break;
      case "pending_prompt_added":
        if (ev.data && typeof ev.data.text === "string") {
          const mine =
            ev.originatorClientId !== undefined && ev.originatorClientId === this.context.clientId();
          this.queued(ev.data.promptId, ev.data.text, ev.data.position, mine);
        }
        break;
      case "pending_prompt_started":
      case "pending_prompt_completed":
        this.unqueue(ev.data?.promptId ?? ev.promptId);
        break;
      case "permission_request":
        if (ev.data) this.#add(ev.data, live);
        break;
      case "permission_resolved":
      case "permission_already_resolved":
        if (ev.data) this.resolve(String(ev.data.requestId), ev.data);
        break;
      case "permission_partial_vote":
        if (ev.data)
          this.setCard(ev.data.requestId, {
            sending: false,
            status: tallyText(ev.data.votesReceived, ev.data.votesNeeded),
          });
        break;
      case "permission_forbidden":
        if (ev.data)
          this.setCard(ev.data.requestId, {
            sending: false,
            error: `Your vote was not accepted (${ev.data.reason ?? "forbidden"}).`,
          });
        break;
      case "turn_complete": {
        const stopReason = ev.data?.stopReason;
        if (stopReason && stopReason !== "end_turn") this.note("notice", `Turn ended: ${stopReason}.`);
        if (live) this.emit({ type: "announce", text: "The agent finished." });
        break;
      }
      case "turn_error": {
        const d = ev.data;
        this.unqueue(d?.promptId ?? ev.promptId);
        // A message taken back before it started: its queued line went, nothing failed.
        if (d?.code === "prompt_withdrawn") break;
        this.note(
          "error",
          `The turn failed: ${d?.message ?? "unknown error"}${d?.code ? ` (${d.code})` : ""}`,
        );
        if (live) this.emit({ type: "announce", text: "The turn failed." });
        break;
      }
      case "prompt_cancelled":
        this.note("notice", "Stopped.");
        break;
      case "session_died": {
        const reason = ev.data?.reason;
        this.#dropAll();
        this.note("error", `The agent process for this session stopped${reason ? ` (${reason})` : ""}.`);
        outcome = "agent_stopped";
        break;
      }
      case "session_closed":
        this.#dropAll();
        // Deleted (from another page or app): it will not come back, so say so rather than "closed".
        this.note(
          "notice",
          ev.data?.reason === "deleted"
            ? "This session was deleted. Its conversation is gone from the daemon."
            : "This session was closed.",
        );
        outcome = "closed";
        break;
      case "session_owned_elsewhere":
        // Shared storage: another daemon took the session over; this one can no longer act on it.
        this.#dropAll();
        this.note(
          "notice",
          `Another server took this session over${ev.data?.owner ? ` (${ev.data.owner})` : ""}: continue it there.`,
        );
        outcome = "closed";
        break;
      default:
        break;
    }
    this.prompts.observe(ev);
    this.emit({ type: "status" });
    if (live && LIST_EVENTS.has(ev.type)) this.emit({ type: "list-changed" });
    return outcome;
  }

  /** A question or approval ended: the card goes, the conversation says how it ended and who decided. */
  resolve(requestId: string, resolution: Resolution): void {
    const interaction = this.interactions.get(requestId);
    if (!interaction) return;
    const answers = resolution.answers ?? this.votes.get(requestId);
    const fields = answerItemFields(
      interaction,
      { ...resolution, ...(answers ? { answers } : {}) },
      { clientId: this.context.clientId(), device: this.context.device(), people: this.context.people() },
    );
    if (!this.timeline.get(`answer:${requestId}`)) this.#item(this.timeline.answer(fields));
    if (interaction.toolCallId) this.context.remember(interaction.toolCallId, fields);
    this.context.forget(interaction.key);
    this.remove(requestId);
  }

  remove(requestId: string): void {
    if (!this.interactions.delete(requestId)) return;
    this.cards.delete(requestId);
    this.votes.delete(requestId);
    this.emit({ type: "interaction-removed", requestId });
    this.emit({ type: "status" });
  }

  #add(request: PermissionRequest, live: boolean): void {
    if (!request?.requestId || this.interactions.has(request.requestId)) return;
    const key = interactionKey(request);
    const toolCallId = request.toolCall?.toolCallId;
    const ctx = this.#restore;
    const restored =
      ctx !== undefined &&
      (ctx.keys.has(key) || (ctx.restarted && typeof toolCallId === "string" && ctx.calls.has(toolCallId)));
    const interaction = interactionOf(request, this.context.workspace(), restored);
    if (restored && ctx && !ctx.told) {
      ctx.told = true;
      // One line says it all: the reload notice, if nothing came after it, becomes "asking you again".
      const reloadNote = this.#reloadNote;
      if (reloadNote && this.timeline.items.at(-1) === reloadNote) {
        reloadNote.text = ASKED_AGAIN;
        this.#item(reloadNote);
      } else this.note("notice", ASKED_AGAIN);
    }
    this.interactions.set(request.requestId, interaction);
    this.emit({ type: "interaction-added", interaction, live });
    if (!live) return;
    this.emit({ type: "attention", interaction });
    const text = restored
      ? ASKED_AGAIN
      : interaction.kind === "question"
        ? "The agent asks you a question."
        : "The agent asks for your approval.";
    this.emit({ type: "announce", text });
  }

  /**
   * A session/update; a tool call seen for the first time whose answer this browser kept (a replayed history
   * holds the call, not who answered it) gets its answer line back, right under it, as it was shown before.
   */
  #toolUpdate(update: unknown, promptId: string | undefined): void {
    const toolCallId = record(update)?.toolCallId;
    const known = typeof toolCallId === "string" && this.timeline.tool(toolCallId) !== undefined;
    this.#item(this.timeline.sessionUpdate(update, promptId));
    if (known || typeof toolCallId !== "string" || this.timeline.tool(toolCallId) === undefined) return;
    const kept = this.context.recall(toolCallId);
    if (kept && !this.timeline.get(`answer:${kept.requestId}`)) this.#item(this.timeline.answer(kept));
  }

  /** Nothing can answer these any more (the agent stopped); a reload asks again what is still open. */
  #dropAll(): void {
    if (this.queue.clear()) this.emit({ type: "queue" });
    for (const requestId of [...this.interactions.keys()]) this.remove(requestId);
  }

  #item(item: TimelineItem | undefined): void {
    if (item) this.emit({ type: "item", item });
  }
}

/**
 * A consensus tally in words. `votesNeeded` is how many more votes the leading choice needs (not the quorum),
 * so "1 of 1" read as if the question were decided while the agent still waited.
 */
export function tallyText(received: number, needed: number): string {
  const votes = received === 1 ? "1 vote" : `${received} votes`;
  return `${votes} so far; ${needed} more needed.`;
}
