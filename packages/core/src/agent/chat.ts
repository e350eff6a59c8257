// The conversation as the model sees it. Pure: no I/O, the turn loop records what it appends.
//
// Two repairs keep the history sendable (every functionCall answered in the very next user turn):
// - at start, orphan repair closes calls a crash left dangling, except `preserveCallIds` (a trailing
//   ask_user_question that a restore is about to re-ask);
// - before every send, the inline repair closes whatever is still dangling, preserved ids included: a plain
//   prompt that arrives before (or instead of) the restore must never send `model[functionCall] -> user[text]`,
//   which Anthropic-compatible providers reject. A restore sends the real response, so there it changes nothing.
import type { Content } from "../content.js";
import { repairOrphanedToolCalls } from "../history/orphan-repair.js";

export interface ChatStartOptions {
  /** Dangling calls left as they are (see docs/restore.md "How a restore runs", step 1). */
  preserveCallIds?: ReadonlySet<string>;
}

export class Chat {
  #history: Content[];

  private constructor(history: Content[]) {
    this.#history = history;
  }

  /** A chat over a copy of `history`, orphan-repaired except `preserveCallIds`. */
  static start(history: readonly Content[], opts: ChatStartOptions = {}): Chat {
    const preserveCallIds = opts.preserveCallIds;
    return new Chat(repairOrphanedToolCalls(history, preserveCallIds ? { preserveCallIds } : {}));
  }

  /** The last entry itself (no clone): the restore scan looks only at it. */
  peekLastHistoryEntry(): Content | undefined {
    return this.#history.at(-1);
  }

  /** The history itself (no clone); callers must not mutate it. */
  getHistory(): readonly Content[] {
    return this.#history;
  }

  append(content: Content): void {
    this.#history.push(content);
  }

  /**
   * Appends a batch's tool results. When the history already ends with results of the same batch (a load after
   * a crash that cut the batch short, then a restore answering the rest), they join that user entry, as
   * historyFromRecords joins their records: one user turn answers one model turn.
   */
  appendToolResponses(content: Content): void {
    const last = this.#history.at(-1);
    const onlyResults = (c: Content) => c.parts.every((p) => p.functionResponse !== undefined);
    if (last?.role === "user" && last.parts.length > 0 && onlyResults(last) && onlyResults(content)) {
      this.#history[this.#history.length - 1] = { ...last, parts: [...last.parts, ...content.parts] };
      return;
    }
    this.#history.push(content);
  }

  /**
   * The contents to send now. The inline repair's result becomes the history, so what the chat holds is
   * what the model saw (a later restore check then sees the question as answered, as it was for the model).
   * The synthetic responses are not recorded: load-time repair derives the same ones from the transcript.
   */
  contentsForSend(): Content[] {
    this.#history = repairOrphanedToolCalls(this.#history);
    return [...this.#history];
  }
}
