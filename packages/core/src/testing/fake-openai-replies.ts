// What the fake OpenAI server can be told to answer, with builders, and helpers for handlers that decide
// by the request (usually by its last message).
import type { OpenAIChatMessage, OpenAIChatRequest } from "../model/openai-wire.js";

export interface FakeToolCall {
  name: string;
  /** An object is JSON-encoded; a string is sent as-is (to script invalid arguments). */
  args: Record<string, unknown> | string;
  /** Defaults to `call_<requestIndex>_<i>`. */
  id?: string;
}

export interface FakeUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface FakeMessageReply {
  type: "message";
  text?: string;
  /** Streamed as `reasoning_content` deltas before the text. */
  reasoning?: string;
  toolCalls?: FakeToolCall[];
  /** Defaults to "tool_calls" when there are calls, else "stop". */
  finishReason?: string;
  /** Sent when the request asks for usage (or always, non-streamed). */
  usage?: FakeUsage;
  /** How many pieces each text, reasoning and arguments string is split into (default 3). */
  deltas?: number;
  /** Pause between SSE frames. */
  chunkDelayMs?: number;
}

export type FakeReply =
  | FakeMessageReply
  /** Any status with a body: a string is sent verbatim (e.g. a hand-written SSE stream), anything else as JSON. */
  | { type: "error"; status: number; body: unknown; headers?: Record<string, string> }
  /** Streams `text` (if any), then a `data:` line that is not JSON, then `[DONE]`. */
  | { type: "malformed"; text?: string; raw: string }
  /** Streams `text` (if any), then never finishes: the response ends only when the client goes away. */
  | { type: "stall"; text?: string }
  /** Streams `text` (if any), then destroys the socket, like a server crashing mid-answer. */
  | { type: "disconnect"; text?: string }
  | { type: "delay"; ms: number; then: FakeReply };

export interface FakeQuestion {
  question: string;
  header: string;
  options: { label: string; description: string }[];
  multiSelect?: boolean;
}

/** A valid one-question ask_user_question payload, for tests that do not care about the wording. */
export const DEFAULT_QUESTION: FakeQuestion = {
  question: "Which color should the button be?",
  header: "Color",
  options: [
    { label: "Blue", description: "The brand color." },
    { label: "Green", description: "Signals success." },
  ],
  multiSelect: false,
};

/**
 * The terse Red/Blue color question the ACP-level tests (child, daemon) ask; their assertions spell out
 * its texts, so it must not change with DEFAULT_QUESTION.
 */
export const RED_BLUE_QUESTION: FakeQuestion = {
  question: "Which color?",
  header: "Color",
  options: [
    { label: "Red", description: "warm" },
    { label: "Blue", description: "cool" },
  ],
  multiSelect: false,
};

const STATUS_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "invalid_api_key",
  403: "permission_denied",
  404: "not_found_error",
  429: "rate_limit_exceeded",
};

export const reply = {
  text(text: string, options: Omit<FakeMessageReply, "type" | "text"> = {}): FakeMessageReply {
    return { type: "message", text, ...options };
  },
  toolCall(name: string, args: Record<string, unknown> | string, id?: string): FakeMessageReply {
    return { type: "message", toolCalls: [id === undefined ? { name, args } : { name, args, id }] };
  },
  toolCalls(
    calls: FakeToolCall[],
    options: Omit<FakeMessageReply, "type" | "toolCalls"> = {},
  ): FakeMessageReply {
    return { type: "message", toolCalls: calls, ...options };
  },
  message(options: Omit<FakeMessageReply, "type">): FakeMessageReply {
    return { type: "message", ...options };
  },
  /** An HTTP error in OpenAI's envelope `{error:{message,type,code}}`; `retryAfter` sets Retry-After (seconds). */
  error(
    status: number,
    options: {
      message?: string;
      retryAfter?: number | string;
      headers?: Record<string, string>;
      body?: unknown;
    } = {},
  ): FakeReply {
    const headers: Record<string, string> = { ...options.headers };
    if (options.retryAfter !== undefined) headers["retry-after"] = String(options.retryAfter);
    const type = STATUS_TYPES[status] ?? (status >= 500 ? "server_error" : "invalid_request_error");
    const body = options.body ?? {
      error: { message: options.message ?? `fake server: HTTP ${status}`, type, code: type },
    };
    return { type: "error", status, body, headers };
  },
  rateLimited(retryAfterSeconds?: number): FakeReply {
    return reply.error(429, {
      message: "Rate limit reached (fake server).",
      ...(retryAfterSeconds === undefined ? {} : { retryAfter: retryAfterSeconds }),
    });
  },
  malformed(options: { text?: string; raw?: string } = {}): FakeReply {
    return {
      type: "malformed",
      raw: options.raw ?? '{"choices":[{"delta":{"content":"oops"',
      text: options.text,
    };
  },
  stall(options: { text?: string } = {}): FakeReply {
    return { type: "stall", text: options.text };
  },
  disconnect(options: { text?: string } = {}): FakeReply {
    return { type: "disconnect", text: options.text };
  },
  delay(ms: number, then: FakeReply): FakeReply {
    return { type: "delay", ms, then };
  },
};

/** A reply that calls `ask_user_question` with these questions (multiSelect defaults to false). */
export function askUserQuestionCall(
  questions: FakeQuestion[],
  options: { id?: string; text?: string } = {},
): FakeMessageReply {
  const args = { questions: questions.map((q) => ({ multiSelect: false, ...q })) };
  return reply.toolCalls([{ name: "ask_user_question", args, ...(options.id ? { id: options.id } : {}) }], {
    ...(options.text ? { text: options.text } : {}),
  });
}

/** The text of a message whatever its content form (string, array of parts, null). */
export function messageText(message: OpenAIChatMessage | undefined): string {
  const content = message?.content;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((part) => part.text ?? "").join("");
  return "";
}

export function lastMessage(request: OpenAIChatRequest): OpenAIChatMessage | undefined {
  return request.messages[request.messages.length - 1];
}

/** The `role: "tool"` messages at the end of the request (the results the model is waiting for). */
export function trailingToolMessages(
  request: OpenAIChatRequest,
): Extract<OpenAIChatMessage, { role: "tool" }>[] {
  const out: Extract<OpenAIChatMessage, { role: "tool" }>[] = [];
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const message = request.messages[i]!;
    if (message.role !== "tool") break;
    out.unshift(message);
  }
  return out;
}

/** The assistant tool call a `tool` message answers (its name and arguments), found by id. */
export function toolCallFor(
  request: OpenAIChatRequest,
  toolCallId: string,
): { name: string; arguments: string } | undefined {
  for (const message of request.messages) {
    if (message.role !== "assistant") continue;
    const call = message.tool_calls?.find((c) => c.id === toolCallId);
    if (call) return { name: call.function.name, arguments: call.function.arguments };
  }
  return undefined;
}
