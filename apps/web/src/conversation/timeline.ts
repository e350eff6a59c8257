// The conversation as a list of items, built from ACP `session/update` notifications (live or replayed)
// plus lines of our own (notices, errors, the answers given to the agent's questions). Pure: the view
// renders whatever item each call returns, keyed, so streaming chunks and tool updates change in place.
import { TOOL_NAME_META_KEY } from "@qwen-daemon/core/protocol";
import { list, record, text } from "../net/read.js";
import { type FileDiff, toolDiffs, toolOutput } from "./tool-content.js";

export type ToolStatus = "pending" | "in_progress" | "completed" | "failed";
export type PlanEntry = { content: string; status: string };
/**
 * Who answered a question or approval: you (this browser), you on another device, another person (on their
 * device), a notification's link, another client (a program), the daemon's journal, or nobody.
 */
export type AnsweredBy = "you" | "device" | "person" | "link" | "other" | "journal" | "nobody";
export type AnswerLine = { label: string; value: string };

export type TextItem = { key: string; kind: "user" | "agent" | "thought"; text: string; promptId?: string };
export type ToolItem = {
  key: string;
  kind: "tool";
  toolCallId: string;
  title: string;
  status: ToolStatus;
  toolKind?: string;
  toolName?: string;
  output: string;
  diffs: FileDiff[];
  rawInput?: unknown;
  promptId?: string;
};
export type PlanItem = { key: string; kind: "plan"; entries: PlanEntry[] };
export type NoteItem = { key: string; kind: "notice" | "error"; text: string };
export type AnswerItem = {
  key: string;
  kind: "answer";
  requestId: string;
  by: AnsweredBy;
  /** What was decided, e.g. "Answered", "Allowed", "Declined". */
  verdict: string;
  /** What it was about (the tool call's title). */
  subject: string;
  lines: AnswerLine[];
  /** Extra words on who answered ("in another window"). */
  detail?: string;
};
export type TimelineItem = TextItem | ToolItem | PlanItem | NoteItem | AnswerItem;

const CHUNK_KINDS: Record<string, TextItem["kind"]> = {
  user_message_chunk: "user",
  agent_message_chunk: "agent",
  agent_thought_chunk: "thought",
};

const STATUSES = new Set<string>(["pending", "in_progress", "completed", "failed"]);

function chunkText(value: unknown): string {
  const content = record(value);
  if (content?.type === "text" && typeof content.text === "string") return content.text;
  if (content?.type === "resource_link") return `[${String(content.name ?? content.uri)}]`;
  return "";
}

export class Timeline {
  readonly items: TimelineItem[] = [];
  readonly #byKey = new Map<string, TimelineItem>();
  /** The item still receiving chunks, if the last thing that happened was a chunk. */
  #open: TextItem | undefined = undefined;
  #seq = 0;

  /**
   * Applies one `session/update`; returns the item it created or changed, if any.
   * @param value  the ACP `update` object (`{ sessionUpdate, ... }`, the contract's SessionUpdatePayload)
   * @param promptId  the prompt the event belongs to, when the daemon said
   */
  sessionUpdate(value: unknown, promptId?: string): TimelineItem | undefined {
    const update = record(value);
    if (update === undefined) return undefined;
    const type = update.sessionUpdate;
    const chunkKind = typeof type === "string" ? CHUNK_KINDS[type] : undefined;
    if (chunkKind) {
      const text = chunkText(update.content);
      const open = this.#open;
      if (open && open.kind === chunkKind && open.promptId === promptId && this.items.at(-1) === open) {
        open.text += text;
        return open;
      }
      const item = this.#add<TextItem>({ kind: chunkKind, text, ...(promptId ? { promptId } : {}) });
      this.#open = item;
      return item;
    }
    if (type === "tool_call" || type === "tool_call_update") return this.#tool(update, promptId);
    if (type === "plan" && Array.isArray(update.entries)) {
      this.#open = undefined;
      const entries = list(update.entries).flatMap((value) => {
        const e = record(value);
        const content = text(e?.content);
        return content === undefined ? [] : [{ content, status: String(e?.status ?? "pending") }];
      });
      return this.#upsert<PlanItem>("plan", { kind: "plan", entries });
    }
    return undefined;
  }

  /** A line of our own (errors, notices such as "the daemon restarted"). */
  note(kind: "notice" | "error", text: string): NoteItem {
    this.#open = undefined;
    return this.#add<NoteItem>({ kind, text });
  }

  /** What was answered to a question or approval; one per request (a later call updates it). */
  answer(fields: Omit<AnswerItem, "key" | "kind">): AnswerItem {
    this.#open = undefined;
    return this.#upsert<AnswerItem>(`answer:${fields.requestId}`, { kind: "answer", ...fields });
  }

  get(key: string): TimelineItem | undefined {
    return this.#byKey.get(key);
  }

  /** The tool call with this id, if the conversation has seen it. */
  tool(toolCallId: string): ToolItem | undefined {
    const item = this.#byKey.get(`tool:${toolCallId}`);
    return item?.kind === "tool" ? item : undefined;
  }

  #tool(update: Readonly<Record<string, unknown>>, promptId: string | undefined): ToolItem {
    this.#open = undefined;
    const toolCallId = String(update.toolCallId ?? "");
    const key = `tool:${toolCallId}`;
    const patch: Partial<ToolItem> = {};
    if (typeof update.title === "string" && update.title !== "") patch.title = update.title;
    if (typeof update.status === "string" && STATUSES.has(update.status)) {
      patch.status = update.status as ToolStatus;
    }
    if (typeof update.kind === "string") patch.toolKind = update.kind;
    const toolName = record(update._meta)?.[TOOL_NAME_META_KEY];
    if (typeof toolName === "string") patch.toolName = toolName;
    if (update.rawInput !== undefined) patch.rawInput = update.rawInput;
    if (Array.isArray(update.content)) {
      const output = toolOutput(update.content);
      const diffs = toolDiffs(update.content);
      if (output) patch.output = output;
      if (diffs.length > 0) patch.diffs = diffs;
    }
    const existing = this.#byKey.get(key);
    if (existing?.kind === "tool") return Object.assign(existing, patch);
    return this.#upsert<ToolItem>(key, {
      kind: "tool",
      toolCallId,
      title: patch.title ?? (typeof toolName === "string" ? toolName : toolCallId),
      status: "pending",
      output: "",
      diffs: [],
      ...(promptId ? { promptId } : {}),
      ...patch,
    });
  }

  #upsert<T extends TimelineItem>(key: string, fields: Omit<T, "key">): T {
    const existing = this.#byKey.get(key);
    if (existing) return Object.assign(existing, fields) as T;
    const item = { key, ...fields } as T;
    this.items.push(item);
    this.#byKey.set(key, item);
    return item;
  }

  #add<T extends TimelineItem>(fields: Omit<T, "key">): T {
    this.#seq += 1;
    return this.#upsert<T>(`item:${this.#seq}`, fields);
  }
}
