// Pure rendering of a scripted message reply into Chat Completions wire data: the SSE frames of a stream,
// or the body of a non-streamed completion. Split points are deterministic so tests can assert chunking.
import type { FakeMessageReply, FakeUsage } from "./fake-openai-replies.js";

export interface RenderContext {
  /** 0-based index of the request, used for default ids. */
  index: number;
  model: string;
  includeUsage: boolean;
}

const CREATED = 1_700_000_000;
const DEFAULT_USAGE: FakeUsage = { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 };

/** Splits into at most `n` non-empty pieces of near-equal length (by code point, so emoji stay whole). */
export function splitPieces(text: string, n: number): string[] {
  const chars = Array.from(text);
  const count = Math.max(1, Math.min(n, chars.length));
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const piece = chars.slice(
      Math.floor((i * chars.length) / count),
      Math.floor(((i + 1) * chars.length) / count),
    );
    if (piece.length > 0) out.push(piece.join(""));
  }
  return out;
}

function toolCallsOf(reply: FakeMessageReply, index: number) {
  return (reply.toolCalls ?? []).map((call, i) => ({
    id: call.id ?? `call_${index}_${i}`,
    name: call.name,
    arguments: typeof call.args === "string" ? call.args : JSON.stringify(call.args),
  }));
}

function finishReasonOf(reply: FakeMessageReply): string {
  return reply.finishReason ?? ((reply.toolCalls ?? []).length > 0 ? "tool_calls" : "stop");
}

/** One `data: ...\n\n` frame. */
export function sseFrame(data: unknown): string {
  return `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}

/** The chunk objects of a streamed reply, in order (without the final `[DONE]`). */
export function renderChunks(reply: FakeMessageReply, ctx: RenderContext): unknown[] {
  const deltas = reply.deltas ?? 3;
  const base = {
    id: `chatcmpl-fake-${ctx.index}`,
    object: "chat.completion.chunk",
    created: CREATED,
    model: ctx.model,
  };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const out: unknown[] = [chunk({ role: "assistant", content: "" })];
  for (const piece of splitPieces(reply.reasoning ?? "", deltas))
    out.push(chunk({ reasoning_content: piece }));
  for (const piece of splitPieces(reply.text ?? "", deltas)) out.push(chunk({ content: piece }));
  toolCallsOf(reply, ctx.index).forEach((call, index) => {
    out.push(
      chunk({
        tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }],
      }),
    );
    for (const piece of splitPieces(call.arguments, deltas)) {
      out.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  out.push(chunk({}, finishReasonOf(reply)));
  if (ctx.includeUsage) out.push({ ...base, choices: [], usage: reply.usage ?? DEFAULT_USAGE });
  return out;
}

/** The non-streamed `chat.completion` body. */
export function renderCompletion(reply: FakeMessageReply, ctx: RenderContext): unknown {
  const calls = toolCallsOf(reply, ctx.index);
  return {
    id: `chatcmpl-fake-${ctx.index}`,
    object: "chat.completion",
    created: CREATED,
    model: ctx.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: reply.text ?? null,
          ...(reply.reasoning ? { reasoning_content: reply.reasoning } : {}),
          ...(calls.length > 0
            ? {
                tool_calls: calls.map((c) => ({
                  id: c.id,
                  type: "function",
                  function: { name: c.name, arguments: c.arguments },
                })),
              }
            : {}),
        },
        finish_reason: finishReasonOf(reply),
      },
    ],
    usage: reply.usage ?? DEFAULT_USAGE,
  };
}

/** Text-only frames for the head of a malformed or stalled stream. */
export function renderTextChunks(text: string | undefined, ctx: RenderContext): unknown[] {
  const all = renderChunks({ type: "message", text: text ?? "" }, { ...ctx, includeUsage: false });
  return all.slice(0, -1); // drop the finish chunk: these streams never finish properly
}
