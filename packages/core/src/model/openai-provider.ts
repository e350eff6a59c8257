// ModelProvider for any OpenAI-compatible Chat Completions server (OpenAI, DashScope compatible mode, vLLM,
// Ollama, llama.cpp server), over node:http (./http-transport.ts says why not the global fetch) with SSE
// streaming. Retries 429 / 5xx / network failures
// with backoff, but only while nothing has been streamed to the caller: a retry after output began would
// duplicate text the user already saw.
import { randomUUID } from "node:crypto";
import { abortableSleep, abortedError, type Sleep } from "./abortable-sleep.js";
import { modelErrorFromHttp } from "./http-error.js";
import {
  type ModelFetch,
  type ModelHttpResponse,
  nodeHttpFetch,
  preloadHttpStack,
} from "./http-transport.js";
import { buildOpenAIChatRequest } from "./openai-messages.js";
import { ChatChunkAssembler, completionEvents } from "./openai-stream-assembler.js";
import { OpenAIChatChunk, OpenAIChatCompletion } from "./openai-wire.js";
import {
  type GenerateRequest,
  ModelError,
  type ModelEvent,
  type ModelProvider,
  type ToolDeclaration,
} from "./provider.js";
import { DEFAULT_RETRY_POLICY, type RetryPolicy, retryDelayMs } from "./retry-policy.js";
import { SseDecoder } from "./sse-decoder.js";

export const DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1";

export interface RetryNotice {
  /** The attempt that failed (1-based). */
  attempt: number;
  delayMs: number;
  error: ModelError;
}

export interface OpenAIProviderOptions {
  /** Base URL ending in the API version, e.g. `http://127.0.0.1:11434/v1`; `/chat/completions` is appended. */
  baseUrl?: string;
  apiKey?: string;
  model: string;
  retry?: Partial<RetryPolicy>;
  /** Injected for tests; defaults to a real timer that stops on abort. */
  sleep?: Sleep;
  random?: () => number;
  now?: () => number;
  /** Replaces the node:http transport (tests pass the global fetch, or a wrapper of it). */
  fetch?: ModelFetch;
  headers?: Record<string, string>;
  /** Send `stream_options.include_usage` (default true). */
  includeUsage?: boolean;
  /** Extra request keys such as `temperature`. */
  extraBody?: Record<string, unknown>;
  /** Ids for tool calls the server sent without one. */
  newCallId?: () => string;
  onRetry?: (notice: RetryNotice) => void;
}

export class OpenAICompatibleProvider implements ModelProvider {
  readonly id = "openai-compatible";
  readonly isDemo = false;
  readonly model: string;
  readonly baseUrl: string;
  private readonly options: OpenAIProviderOptions;
  private readonly policy: RetryPolicy;

  constructor(options: OpenAIProviderOptions) {
    this.options = options;
    this.model = options.model;
    this.baseUrl = (options.baseUrl || DEFAULT_OPENAI_BASE_URL).replace(/\/+$/, "");
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  }

  describe(): string {
    const key = this.options.apiKey ? "" : ", no API key";
    return `OpenAI-compatible model "${this.model}" at ${this.baseUrl}${key}`;
  }

  async *generate(request: GenerateRequest): AsyncGenerator<ModelEvent> {
    const body = this.requestBody(request);
    const sleep = this.options.sleep ?? abortableSleep;
    const random = this.options.random ?? Math.random;
    for (let attempt = 1; ; attempt++) {
      let streamed = false;
      try {
        for await (const event of this.attempt(body, request.signal)) {
          streamed = true;
          yield event;
        }
        return;
      } catch (caught) {
        const error = this.toModelError(caught, request.signal, "request");
        const delayMs = streamed ? undefined : retryDelayMs(error, attempt, this.policy, random);
        if (delayMs === undefined) throw error;
        this.options.onRetry?.({ attempt, delayMs, error });
        await sleep(delayMs, request.signal);
      }
    }
  }

  /**
   * The first call's cold costs, paid while idle: the node:http stack is loaded, and a request body is built
   * and a sample stream parsed (text, a tool call in two fragments, usage) by the very code a real call runs,
   * so V8 has compiled it. No request is sent.
   */
  async warmUp(tools: ToolDeclaration[]): Promise<void> {
    if (!this.options.fetch) await preloadHttpStack(this.baseUrl);
    this.requestBody({ contents: [{ role: "user", parts: [{ text: "warm-up" }] }], tools });
    const sse = new SseDecoder();
    const assembler = new ChatChunkAssembler({ newCallId: defaultCallId });
    const text = new TextDecoder();
    for (const data of sse.push(text.decode(new TextEncoder().encode(WARM_UP_STREAM), { stream: true }))) {
      if (data.trim() === "[DONE]") break;
      assembler.push(parseChunk(data));
    }
    assembler.finish();
  }

  private requestBody(request: GenerateRequest): string {
    return JSON.stringify(
      buildOpenAIChatRequest({
        model: this.model,
        systemInstruction: request.systemInstruction,
        contents: request.contents,
        tools: request.tools,
        includeUsage: this.options.includeUsage,
        extraBody: this.options.extraBody,
      }),
    );
  }

  /** One HTTP exchange, yielding events as the stream delivers them. */
  private async *attempt(body: string, signal: AbortSignal | undefined): AsyncGenerator<ModelEvent> {
    if (signal?.aborted) throw abortedError();
    // Our own controller also tears the connection down when the caller stops iterating early.
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const response = await this.post(body, controller.signal, signal);
      if (!response.ok) {
        const text = await response.text().catch((e: unknown) => {
          throw this.toModelError(e, signal, "stream");
        });
        const now = (this.options.now ?? Date.now)();
        throw modelErrorFromHttp(response.status, response.statusText, text, response.headers, now);
      }
      if ((response.headers.get("content-type") ?? "").includes("application/json")) {
        yield* await this.wholeCompletion(response, signal);
        return;
      }
      yield* this.stream(response, signal);
    } finally {
      signal?.removeEventListener("abort", onAbort);
      controller.abort();
    }
  }

  private async post(
    body: string,
    ownSignal: AbortSignal,
    callerSignal?: AbortSignal,
  ): Promise<ModelHttpResponse> {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "text/event-stream, application/json",
      ...this.options.headers,
    };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    try {
      return await (this.options.fetch ?? nodeHttpFetch)(`${this.baseUrl}/chat/completions`, {
        method: "POST",
        headers,
        body,
        signal: ownSignal,
      });
    } catch (caught) {
      throw this.toModelError(caught, callerSignal, "request");
    }
  }

  private async *stream(
    response: ModelHttpResponse,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<ModelEvent> {
    if (!response.body) throw new ModelError("protocol", "The model API answered without a body.");
    const reader = response.body.getReader();
    const text = new TextDecoder();
    const sse = new SseDecoder();
    const assembler = new ChatChunkAssembler({ newCallId: this.options.newCallId ?? defaultCallId });
    for (;;) {
      let read: Awaited<ReturnType<typeof reader.read>>;
      try {
        read = await reader.read();
      } catch (caught) {
        // A connection dropped after the final chunk lost nothing.
        if (assembler.finished && !signal?.aborted) break;
        throw this.toModelError(caught, signal, "stream");
      }
      const payloads = read.done
        ? [...sse.push(text.decode()), ...sse.end()]
        : sse.push(text.decode(read.value, { stream: true }));
      for (const data of payloads) {
        if (data.trim() === "[DONE]") {
          yield* assembler.finish();
          return;
        }
        for (const event of assembler.push(parseChunk(data))) {
          // One read can hold many chunks: stop at once when the caller aborted while we were yielding.
          if (signal?.aborted) throw abortedError();
          yield event;
        }
      }
      if (read.done) break;
    }
    if (!assembler.finished) {
      throw new ModelError(
        "protocol",
        "The model stream ended before the answer was complete (no finish_reason).",
      );
    }
    yield* assembler.finish();
  }

  private async wholeCompletion(
    response: ModelHttpResponse,
    signal: AbortSignal | undefined,
  ): Promise<ModelEvent[]> {
    let json: unknown;
    try {
      json = await response.json();
    } catch (caught) {
      if (caught instanceof SyntaxError) {
        throw new ModelError("protocol", "The model API sent a JSON response that does not parse.", {
          cause: caught,
        });
      }
      throw this.toModelError(caught, signal, "stream");
    }
    const parsed = OpenAIChatCompletion.safeParse(json);
    if (!parsed.success) {
      throw new ModelError("protocol", `The model API sent an unexpected response: ${parsed.error.message}`);
    }
    return completionEvents(parsed.data, this.options.newCallId ?? defaultCallId);
  }

  private toModelError(
    caught: unknown,
    signal: AbortSignal | undefined,
    phase: "request" | "stream",
  ): ModelError {
    if (signal?.aborted) return abortedError();
    if (caught instanceof ModelError) return caught;
    const reason = describeCause(caught);
    const message =
      phase === "request"
        ? `Could not reach the model API at ${this.baseUrl}: ${reason}`
        : `The connection to the model API at ${this.baseUrl} broke: ${reason}`;
    return new ModelError("network", message, { cause: caught });
  }
}

/** What warmUp parses: the shapes of a typical streamed reply. */
const WARM_UP_STREAM = [
  { choices: [{ index: 0, delta: { role: "assistant", content: "One " }, finish_reason: null }] },
  {
    choices: [
      {
        index: 0,
        delta: {
          tool_calls: [{ index: 0, id: "call_w", type: "function", function: { name: "w", arguments: "{" } }],
        },
        finish_reason: null,
      },
    ],
  },
  {
    choices: [
      { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: "}" } }] }, finish_reason: null },
    ],
  },
  { choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] },
  { choices: [], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } },
]
  .map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`)
  .concat("data: [DONE]\n\n")
  .join("");

function parseChunk(data: string): OpenAIChatChunk {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch (caught) {
    throw new ModelError(
      "protocol",
      `The model stream sent a chunk that is not JSON: ${data.slice(0, 200)}`,
      {
        cause: caught,
      },
    );
  }
  const parsed = OpenAIChatChunk.safeParse(json);
  if (!parsed.success) {
    throw new ModelError("protocol", `The model stream sent an unexpected chunk: ${data.slice(0, 200)}`, {
      cause: parsed.error,
    });
  }
  return parsed.data;
}

/**
 * node:http rejects with the socket error itself (`connect ECONNREFUSED ...`); fetch wraps it as
 * `TypeError: fetch failed` with the useful part in `cause`.
 */
function describeCause(caught: unknown): string {
  if (!(caught instanceof Error)) return String(caught);
  const cause = caught.cause;
  if (cause instanceof Error) {
    const code = "code" in cause && typeof cause.code === "string" ? `${cause.code} ` : "";
    return `${caught.message} (${code}${cause.message})`;
  }
  return caught.message;
}

function defaultCallId(): string {
  return `call_${randomUUID().replaceAll("-", "").slice(0, 24)}`;
}
