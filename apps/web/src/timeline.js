// The conversation as a list of items, built from ACP `session/update` notifications (live or replayed).
// Pure: the view renders whatever item each call returns, keyed, so streaming chunks update in place.

/**
 * @typedef {"user" | "agent" | "thought" | "tool" | "plan" | "notice" | "error"} ItemKind
 * @typedef {{ key: string, kind: ItemKind, text: string, title?: string, status?: string,
 *   toolKind?: string, detail?: string, promptId?: string }} TimelineItem
 */

const CHUNK_KINDS = /** @type {const} */ ({
  user_message_chunk: "user",
  agent_message_chunk: "agent",
  agent_thought_chunk: "thought",
});

/**
 * Readable text of ACP tool-call content: text blocks as they are, diffs as "path" plus the new text.
 * @param {unknown} content
 */
export function toolContentText(content) {
  if (!Array.isArray(content)) return "";
  /** @type {string[]} */
  const parts = [];
  for (const block of content) {
    if (block?.type === "content" && block.content?.type === "text") parts.push(String(block.content.text));
    else if (block?.type === "diff") {
      parts.push(`${block.path ?? "file"}:\n${typeof block.newText === "string" ? block.newText : ""}`);
    }
  }
  return parts.join("\n\n");
}

/** @param {any} content */
function chunkText(content) {
  if (content?.type === "text" && typeof content.text === "string") return content.text;
  if (content?.type === "resource_link") return `[${content.name ?? content.uri}]`;
  return "";
}

export class Timeline {
  /** @type {TimelineItem[]} */
  items = [];
  /** @type {Map<string, TimelineItem>} */
  #byKey = new Map();
  /** The item still receiving chunks, if the last thing that happened was a chunk. */
  /** @type {TimelineItem | undefined} */
  #open = undefined;
  #seq = 0;

  /**
   * Applies one `session/update`; returns the item it created or changed, if any.
   * @param {any} update  the ACP `update` object (`{ sessionUpdate, ... }`)
   * @param {string} [promptId]  the prompt the event belongs to, when the daemon said
   * @returns {TimelineItem | undefined}
   */
  sessionUpdate(update, promptId) {
    const type = update?.sessionUpdate;
    if (type in CHUNK_KINDS) {
      const kind = CHUNK_KINDS[/** @type {keyof typeof CHUNK_KINDS} */ (type)];
      const text = chunkText(update.content);
      const open = this.#open;
      if (open && open.kind === kind && open.promptId === promptId && this.items.at(-1) === open) {
        open.text += text;
        return open;
      }
      const item = this.#add({ kind, text, ...(promptId ? { promptId } : {}) });
      this.#open = item;
      return item;
    }
    if (type === "tool_call" || type === "tool_call_update") return this.#tool(update);
    if (type === "plan" && Array.isArray(update.entries)) {
      this.#open = undefined;
      const text = update.entries
        .map((/** @type {any} */ e) => `${e.status === "completed" ? "☑" : "☐"} ${e.content}`)
        .join("\n");
      return this.#upsert("plan", { kind: "plan", text });
    }
    return undefined;
  }

  /**
   * A line of our own (errors, notices such as "session restored").
   * @param {"notice" | "error"} kind
   * @param {string} text
   */
  note(kind, text) {
    this.#open = undefined;
    return this.#add({ kind, text });
  }

  /** @param {string} key */
  get(key) {
    return this.#byKey.get(key);
  }

  /** @param {any} update */
  #tool(update) {
    this.#open = undefined;
    const key = `tool:${update.toolCallId}`;
    /** @type {Partial<TimelineItem>} */
    const patch = {};
    if (typeof update.title === "string") patch.title = update.title;
    if (typeof update.status === "string") patch.status = update.status;
    if (typeof update.kind === "string") patch.toolKind = update.kind;
    const detail = toolContentText(update.content);
    if (detail) patch.detail = detail;
    const existing = this.#byKey.get(key);
    if (existing) {
      Object.assign(existing, patch);
      existing.text = existing.title ?? existing.text;
      return existing;
    }
    const title = patch.title ?? update._meta?.toolName ?? update.toolCallId;
    return this.#upsert(key, { kind: "tool", text: title, ...patch, title });
  }

  /**
   * @param {string} key
   * @param {Omit<TimelineItem, "key">} fields
   */
  #upsert(key, fields) {
    const existing = this.#byKey.get(key);
    if (existing) return Object.assign(existing, fields);
    /** @type {TimelineItem} */
    const item = { key, ...fields };
    this.items.push(item);
    this.#byKey.set(key, item);
    return item;
  }

  /** @param {Omit<TimelineItem, "key">} fields */
  #add(fields) {
    this.#seq += 1;
    return this.#upsert(`item:${this.#seq}`, fields);
  }
}
