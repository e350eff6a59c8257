// The model provider contract: everything the turn loop needs from a model, nothing more.
import type { Content } from "../content.js";

/** A tool as offered to the model; `parameters` is a JSON Schema object. */
export interface ToolDeclaration {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface GenerateRequest {
  systemInstruction?: string;
  contents: Content[];
  tools: ToolDeclaration[];
  signal?: AbortSignal;
}

export interface Usage {
  promptTokens?: number;
  completionTokens?: number;
  totalTokens?: number;
}

export type FinishReason = "stop" | "tool_calls" | "length" | "content_filter" | "other";

/** Streamed events; tool calls arrive whole (already assembled across chunks), each with a non-empty id. */
export type ModelEvent =
  | { type: "text"; text: string }
  | { type: "thought"; text: string }
  | {
      type: "tool_call";
      /**
       * `invalidArguments` holds the raw argument text when it was not a JSON object (args is then `{}`), so the
       * turn loop can tell the model instead of running the tool with made-up input.
       */
      call: { id: string; name: string; args: Record<string, unknown>; invalidArguments?: string };
    }
  | { type: "finish"; reason: FinishReason; usage?: Usage };

export interface ModelProvider {
  /** Short label for banners and logs, e.g. "openai-compatible" or "demo". */
  readonly id: string;
  readonly model: string;
  /** True for the built-in demo model: banners and replies say so. */
  readonly isDemo: boolean;
  /** One line for the startup banner, e.g. `demo model (set OPENAI_BASE_URL ...)`; never includes secrets. */
  describe?(): string;
  generate(request: GenerateRequest): AsyncIterable<ModelEvent>;
  /**
   * Optional: loads and runs, on sample data and without talking to the model, the code the first
   * `generate` needs (its HTTP stack, request building, stream parsing), so that a process calling it while
   * idle answers its first prompt sooner. Never required for correctness.
   */
  warmUp?(tools: ToolDeclaration[]): Promise<void>;
}

export type ModelErrorKind =
  | "auth"
  | "rate_limit"
  | "server"
  | "network"
  | "bad_request"
  | "aborted"
  | "protocol";

/** The one error type providers throw; `kind` tells callers whether a retry could help. */
export class ModelError extends Error {
  readonly kind: ModelErrorKind;
  readonly status: number | undefined;
  /** The server's Retry-After, in milliseconds, when it sent one. */
  readonly retryAfterMs: number | undefined;
  constructor(
    kind: ModelErrorKind,
    message: string,
    options?: { status?: number; cause?: unknown; retryAfterMs?: number },
  ) {
    super(message, { cause: options?.cause });
    this.name = "ModelError";
    this.kind = kind;
    this.status = options?.status;
    this.retryAfterMs = options?.retryAfterMs;
  }
  get retryable(): boolean {
    return this.kind === "rate_limit" || this.kind === "server" || this.kind === "network";
  }
}
