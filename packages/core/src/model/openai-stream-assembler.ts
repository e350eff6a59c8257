// Turns parsed Chat Completions chunks into ModelEvents. Text and reasoning deltas pass straight through;
// tool calls arrive in fragments (id and name first, arguments spread over later chunks, keyed by `index`)
// and are emitted whole, after the stream ends. Pure: the provider owns the HTTP side.
import type {
  OpenAIChatChunk,
  OpenAIChatCompletion,
  OpenAIToolCallDelta,
  OpenAIUsage,
} from "./openai-wire.js";
import { type FinishReason, ModelError, type ModelEvent, type Usage } from "./provider.js";

interface PendingCall {
  id: string;
  name: string;
  args: string;
}

export function mapFinishReason(reason: string): FinishReason {
  switch (reason) {
    case "stop":
    case "length":
    case "tool_calls":
    case "content_filter":
      return reason;
    case "function_call":
      return "tool_calls";
    default:
      return "other";
  }
}

export function mapUsage(usage: OpenAIUsage): Usage {
  const out: Usage = {};
  if (usage.prompt_tokens != null) out.promptTokens = usage.prompt_tokens;
  if (usage.completion_tokens != null) out.completionTokens = usage.completion_tokens;
  if (usage.total_tokens != null) out.totalTokens = usage.total_tokens;
  return out;
}

/** Arguments text → args object; anything but a JSON object (empty text counts as `{}`) is reported raw. */
export function parseToolArguments(raw: string): {
  args: Record<string, unknown>;
  invalidArguments?: string;
} {
  if (raw.trim() === "") return { args: {} };
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) {
      return { args: parsed as Record<string, unknown> };
    }
  } catch {
    // Not JSON: reported through invalidArguments below rather than thrown, so one sloppy call from a
    // small local model does not end the turn.
  }
  return { args: {}, invalidArguments: raw };
}

function errorMessageOf(error: unknown): string {
  if (typeof error === "string") return error;
  if (error && typeof error === "object" && "message" in error && typeof error.message === "string") {
    return error.message;
  }
  return JSON.stringify(error);
}

export class ChatChunkAssembler {
  private readonly calls: PendingCall[] = [];
  private readonly newCallId: () => string;
  private finishReason: string | undefined;
  private usage: Usage | undefined;

  constructor(options: { newCallId: () => string }) {
    this.newCallId = options.newCallId;
  }

  /** True once a chunk carried a finish_reason: the answer is complete even if the stream then breaks. */
  get finished(): boolean {
    return this.finishReason !== undefined;
  }

  push(chunk: OpenAIChatChunk): ModelEvent[] {
    if (chunk.error !== undefined && chunk.error !== null) {
      throw new ModelError(
        "server",
        `The model server reported an error mid-stream: ${errorMessageOf(chunk.error)}`,
      );
    }
    if (chunk.usage) this.usage = mapUsage(chunk.usage);
    const events: ModelEvent[] = [];
    for (const choice of chunk.choices ?? []) {
      if (choice.index != null && choice.index !== 0) continue; // we never ask for n > 1
      const delta = choice.delta;
      if (delta) {
        const reasoning = delta.reasoning_content ?? delta.reasoning;
        if (reasoning) events.push({ type: "thought", text: reasoning });
        if (delta.content) events.push({ type: "text", text: delta.content });
        for (const fragment of delta.tool_calls ?? []) this.addFragment(fragment);
      }
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
    }
    return events;
  }

  /** The assembled tool calls, then the finish event. */
  finish(): ModelEvent[] {
    const events: ModelEvent[] = [];
    for (const call of this.calls) {
      if (!call.name) throw new ModelError("protocol", "The model stream sent a tool call without a name.");
      events.push({
        type: "tool_call",
        call: { id: call.id, name: call.name, ...parseToolArguments(call.args) },
      });
    }
    let reason: FinishReason = mapFinishReason(this.finishReason ?? "stop");
    // vLLM and some Ollama builds say "stop" while returning tool calls; the calls are what matters.
    if (this.calls.length > 0 && reason === "stop") reason = "tool_calls";
    events.push(this.usage ? { type: "finish", reason, usage: this.usage } : { type: "finish", reason });
    return events;
  }

  private addFragment(fragment: OpenAIToolCallDelta): void {
    const target = this.targetOf(fragment);
    if (fragment.function?.name) target.name += fragment.function.name;
    if (fragment.function?.arguments) target.args += fragment.function.arguments;
  }

  /**
   * Fragments are keyed by `index`. Servers that omit it (some Gemini and llama.cpp builds) start a new call
   * with a fresh id and continue the last one otherwise.
   */
  private targetOf(fragment: OpenAIToolCallDelta): PendingCall {
    const id = fragment.id || undefined;
    if (fragment.index != null) {
      while (this.calls.length <= fragment.index) this.calls.push({ id: "", name: "", args: "" });
      const call = this.calls[fragment.index]!;
      if (!call.id) call.id = id ?? this.newCallId();
      return call;
    }
    const last = this.calls[this.calls.length - 1];
    if (last && (id === undefined || id === last.id)) return last;
    const call = { id: id ?? this.newCallId(), name: "", args: "" };
    this.calls.push(call);
    return call;
  }
}

/** Events for a whole (non-streamed) completion, for servers that ignore `stream: true`. */
export function completionEvents(completion: OpenAIChatCompletion, newCallId: () => string): ModelEvent[] {
  const assembler = new ChatChunkAssembler({ newCallId });
  const choice = completion.choices[0];
  const events = choice
    ? assembler.push({
        choices: [
          {
            index: 0,
            delta: {
              content: choice.message.content,
              reasoning_content: choice.message.reasoning_content ?? choice.message.reasoning,
              tool_calls: choice.message.tool_calls?.map((call, index) => ({ index, ...call })),
            },
            finish_reason: choice.finish_reason,
          },
        ],
        usage: completion.usage,
      })
    : [];
  return [...events, ...assembler.finish()];
}
