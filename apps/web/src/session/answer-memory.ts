// The answers given in a session, as the conversation showed them ("You: Answered · Colour: Blue"), kept in
// this browser by tool call. A load's history is the transcript, which holds the tool calls and their results
// but not who decided what; with these records the conversation after a reload or a daemon restart shows the
// same answer lines it showed before.
import type { AnswerItem } from "../conversation/timeline.js";
import type { KeyValueStorage } from "../net/client-ids.js";

const PREFIX = "qwen-serve.answers.";
/** Records kept per session (the newest). */
const MAX = 200;

export type AnswerRecord = Omit<AnswerItem, "key" | "kind">;

export class AnswerMemory {
  constructor(readonly storage: KeyValueStorage | undefined) {}

  remember(sessionId: string, toolCallId: string, record: AnswerRecord): void {
    const all = this.#read(sessionId);
    delete all[toolCallId];
    all[toolCallId] = record;
    const kept = Object.entries(all).slice(-MAX);
    try {
      this.storage?.setItem(PREFIX + sessionId, JSON.stringify(Object.fromEntries(kept)));
    } catch {
      // A full storage only costs the record after a reload.
    }
  }

  recall(sessionId: string, toolCallId: string): AnswerRecord | undefined {
    return this.#read(sessionId)[toolCallId];
  }

  #read(sessionId: string): Record<string, AnswerRecord> {
    try {
      const parsed = JSON.parse(this.storage?.getItem(PREFIX + sessionId) ?? "{}");
      return parsed && typeof parsed === "object" ? parsed : {};
    } catch {
      return {};
    }
  }
}
