// Collects one streamed model reply into the Content the history records. Pure.
import type { Content, Part } from "../content.js";
import type { FinishReason, ModelEvent, Usage } from "../model/provider.js";

/** A tool call as the model sent it; `invalidArguments` is the raw text when it was not a JSON object. */
export interface StreamedCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
  invalidArguments?: string;
}

export class ModelReply {
  #thought = "";
  #text = "";
  readonly calls: StreamedCall[] = [];
  finishReason: FinishReason | undefined;
  /** The provider's token counts for the request, when it sent them. */
  usage: Usage | undefined;

  add(event: ModelEvent): void {
    switch (event.type) {
      case "text":
        this.#text += event.text;
        break;
      case "thought":
        this.#thought += event.text;
        break;
      case "tool_call":
        this.calls.push(event.call);
        break;
      case "finish":
        this.finishReason = event.reason;
        this.usage = event.usage;
        break;
    }
  }

  /**
   * The model entry for the history, or undefined when the reply is empty (the API rejects empty turns).
   * `withCalls: false` keeps only what was said: a reply cut short must not leave calls nobody will run.
   */
  content(opts: { withCalls: boolean }): Content | undefined {
    const parts: Part[] = [];
    if (this.#thought) parts.push({ text: this.#thought, thought: true });
    if (this.#text) parts.push({ text: this.#text });
    if (opts.withCalls) {
      for (const call of this.calls)
        parts.push({ functionCall: { id: call.id, name: call.name, args: call.args } });
    }
    return parts.length > 0 ? { role: "model", parts } : undefined;
  }
}
