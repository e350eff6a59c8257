// What a failed child request means for the caller (an error with a code) or for a turn. JSON-RPC errors from the child
// are duck-typed ({code: number, message}) so any ACP implementation's errors map the same way.
import { SessionConfigOption } from "@qwen-daemon/core/protocol";
import { ChildGoneError } from "../bridge/child-connection.js";
import type { DaemonError } from "../errors/daemon-error.js";
import { agentError, agentUnavailable, invalidRequest, sessionNotFound } from "../errors/domain-errors.js";
import { clipEcho } from "../errors/echo.js";
import type { TurnOutcome } from "./prompt-queue.js";

/** JSON-RPC "resource not found" (ACP uses it for unknown sessions). */
const RESOURCE_NOT_FOUND = -32002;
const INVALID_PARAMS = -32602;

type RpcError = { code: number; message: string; data?: unknown };

function asRpcError(error: unknown): RpcError | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { code, message } = error as Record<string, unknown>;
  return typeof code === "number" && typeof message === "string" ? (error as RpcError) : undefined;
}

/** Detail text of a JSON-RPC error: `data.details` / `data.message` when present, else its message. */
export function childErrorMessage(error: unknown): string {
  const rpc = asRpcError(error);
  if (rpc !== undefined) {
    const data = rpc.data as Record<string, unknown> | string | undefined;
    if (typeof data === "string" && data !== "") return data;
    if (typeof data === "object" && data !== null) {
      for (const key of ["details", "message"]) {
        const value = data[key];
        if (typeof value === "string" && value !== "") return value;
      }
    }
    return rpc.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/** The error for a child request that failed while serving a request about `sessionId`. */
export function errorFromChild(error: unknown, sessionId?: string): DaemonError {
  if (error instanceof ChildGoneError) return agentUnavailable(error.message);
  const rpc = asRpcError(error);
  const message = childErrorMessage(error);
  if (rpc !== undefined && sessionId !== undefined) {
    if (rpc.code === RESOURCE_NOT_FOUND || /not found/i.test(message)) return sessionNotFound(sessionId);
  }
  // The agent's word on the request's parameters is for the client, but it may quote them: kept short.
  if (rpc?.code === INVALID_PARAMS) return invalidRequest(clipEcho(message, 300));
  return agentError(message);
}

/** A session/prompt that failed, as the turn's outcome (`turn_error`). */
export function turnErrorFromChild(error: unknown): TurnOutcome {
  if (error instanceof ChildGoneError) return { kind: "error", message: error.message, code: "session_died" };
  const rpc = asRpcError(error);
  return {
    kind: "error",
    message: childErrorMessage(error),
    ...(rpc !== undefined ? { code: String(rpc.code) } : {}),
  };
}

/** The config options of a new/load/resume answer, when the agent sent well-formed ones. */
export function configOptionsOf(response: { configOptions?: unknown }): SessionConfigOption[] | undefined {
  const parsed = SessionConfigOption.array().safeParse(response.configOptions);
  return parsed.success ? parsed.data : undefined;
}

/** True when the child does not implement the method (JSON-RPC -32601). */
export function isMethodNotFound(error: unknown): boolean {
  return asRpcError(error)?.code === -32601;
}
