// The reference daemon's external tool guard (e2e/interop/NOTES.md §2). The reference `qwen serve` spawns its
// child with QWEN_CODE_PRIVATE_EXTERNAL_TOOL_GUARD=required-v1 and a random QWEN_CODE_PRIVATE_ACP_CAPABILITY,
// sends that token back in the initialize `_meta`, and refuses every session unless the initialize result
// acknowledges the guard. The ack is a promise: before running a shell-executing tool the child asks the
// daemon (`qwen/control/external_tool_guard/prepare`) and obeys its answer.
//
// Parsing the env, the trust decision and the reply check are pure; `prepareExternalTool` is the one call.
import { timingSafeEqual } from "node:crypto";
import type { AgentContext } from "@agentclientprotocol/sdk";
import type { BeforeExecuteDecision } from "@qwen-daemon/core";
import {
  EXTERNAL_TOOL_GUARD_PREPARE_METHOD,
  EXTERNAL_TOOL_GUARD_REQUIRED,
  PRIVATE_PARENT_CAPABILITY_META_KEY,
} from "@qwen-daemon/core/protocol";

export const PRIVATE_ACP_CAPABILITY_ENV = "QWEN_CODE_PRIVATE_ACP_CAPABILITY";
export const PRIVATE_EXTERNAL_TOOL_GUARD_ENV = "QWEN_CODE_PRIVATE_EXTERNAL_TOOL_GUARD";
/**
 * Every private guard variable the reference daemon may set. They are removed from this process once read,
 * so the subprocesses of tools (run_shell_command) never inherit the parent's secret.
 */
export const PRIVATE_PARENT_ENV_KEYS = [
  PRIVATE_ACP_CAPABILITY_ENV,
  PRIVATE_EXTERNAL_TOOL_GUARD_ENV,
  "QWEN_CODE_PRIVATE_EXTERNAL_TOOL_GUARD_PROVIDER",
  "QWEN_CODE_EXTERNAL_TOOL_GUARD_TOKEN",
] as const;

/** The tools the reference guards (`monitor` does not exist here; listed so a future one is covered). */
export const SHELL_EXECUTING_TOOL_NAMES: ReadonlySet<string> = new Set(["run_shell_command", "monitor"]);

/** The reference's texts, so the model reads the same words under either child. */
export const INVALID_PARENT_CAPABILITY_TEXT = "Invalid private ACP parent capability";
export const GUARD_DENIED_TEXT = "Tool invocation denied by host policy";
export const GUARD_FAILED_TEXT = "Tool invocation guard failed";
const MAX_DENIAL_REASON_CHARS = 500;

export interface PrivateParentEnv {
  /** The token the spawning daemon will present; undefined when not spawned as a private child. */
  capability: string | undefined;
  /** QWEN_CODE_PRIVATE_EXTERNAL_TOOL_GUARD === "required-v1". */
  guardRequired: boolean;
}

export function readPrivateParentEnv(env: Readonly<Record<string, string | undefined>>): PrivateParentEnv {
  const capability = env[PRIVATE_ACP_CAPABILITY_ENV];
  return {
    capability: capability === undefined || capability === "" ? undefined : capability,
    guardRequired: env[PRIVATE_EXTERNAL_TOOL_GUARD_ENV] === EXTERNAL_TOOL_GUARD_REQUIRED,
  };
}

/** Deletes the private variables (call with process.env right after reading them). */
export function scrubPrivateParentEnv(env: Record<string, string | undefined>): void {
  for (const key of PRIVATE_PARENT_ENV_KEYS) delete env[key];
}

export type InitializeAdmission =
  /** Answer initialize; `guardReady`: add the ack to its `_meta` and guard shell tools from now on. */
  | { kind: "admitted"; guardReady: boolean }
  /** Answer with invalidParams INVALID_PARENT_CAPABILITY_TEXT. */
  | { kind: "rejected" };

/**
 * Who the client is, decided at the first initialize as the reference does: without an expected token any
 * client is an ordinary (untrusted) ACP client; with one, the client must present it (constant-time
 * compare) or every initialize on this connection is refused from then on.
 */
export class PrivateParentGate {
  readonly #env: PrivateParentEnv;
  #state: "uninitialized" | "trusted" | "untrusted" | "rejected" = "uninitialized";

  constructor(env: PrivateParentEnv) {
    this.#env = env;
  }

  /**
   * The client presented the token of the daemon that spawned this child (the reference daemon does): a
   * qwen daemon, which answers questions with `answers` and sends restore prompts itself.
   */
  get trustedParent(): boolean {
    return this.#state === "trusted";
  }

  /** True once a trusted parent was told the guard is ready: shell tools must be cleared with it. */
  get guardActive(): boolean {
    return this.#state === "trusted" && this.#env.guardRequired;
  }

  admit(meta: { [key: string]: unknown } | null | undefined): InitializeAdmission {
    if (this.#state === "uninitialized") {
      const expected = this.#env.capability;
      if (expected === undefined) this.#state = "untrusted";
      else
        this.#state = capabilityMatches(meta?.[PRIVATE_PARENT_CAPABILITY_META_KEY], expected)
          ? "trusted"
          : "rejected";
    }
    if (this.#state === "rejected") return { kind: "rejected" };
    return { kind: "admitted", guardReady: this.guardActive };
  }
}

function capabilityMatches(supplied: unknown, expected: string): boolean {
  if (typeof supplied !== "string") return false;
  const a = Buffer.from(supplied);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface ExternalToolGuardRequest {
  sessionId: string;
  promptId: string;
  toolCallId: string;
  toolName: string;
  arguments: Record<string, unknown>;
  /** Where the tool runs; the daemon treats it as untrusted input. */
  invocationCwd?: string;
}

/**
 * The daemon's reply as the reference reads it: exactly `{allowed:true}` or `{allowed:false, reason?}` with
 * a printable reason of at most 500 characters. Anything else fails closed.
 */
export function interpretGuardReply(raw: unknown): BeforeExecuteDecision {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return failed();
  const reply = raw as Record<string, unknown>;
  if (typeof reply.allowed !== "boolean") return failed();
  if (Object.keys(reply).some((key) => key !== "allowed" && key !== "reason")) return failed();
  if (reply.allowed) return Object.hasOwn(reply, "reason") ? failed() : { allowed: true };
  if (reply.reason === undefined) return { allowed: false, reason: GUARD_DENIED_TEXT };
  return isValidDenialReason(reply.reason) ? { allowed: false, reason: reply.reason } : failed();
}

function isValidDenialReason(reason: unknown): reason is string {
  return (
    typeof reason === "string" &&
    reason.trim().length > 0 &&
    reason.length <= MAX_DENIAL_REASON_CHARS &&
    ![...reason].some((ch) => {
      const code = ch.charCodeAt(0);
      return code < 32 || (code >= 127 && code <= 159) || code === 0x2028 || code === 0x2029;
    })
  );
}

function failed(): BeforeExecuteDecision {
  return { allowed: false, reason: GUARD_FAILED_TEXT };
}

/** Asks the daemon; never throws: an error reply, a lost connection or an abort deny the call. */
export async function prepareExternalTool(
  client: AgentContext,
  request: ExternalToolGuardRequest,
  signal: AbortSignal,
  log: (message: string) => void,
): Promise<BeforeExecuteDecision> {
  if (signal.aborted) return failed();
  try {
    const raw = await client.request<unknown, ExternalToolGuardRequest>(
      EXTERNAL_TOOL_GUARD_PREPARE_METHOD,
      request,
      { cancellationSignal: signal, stopWaitingOnCancel: true },
    );
    if (signal.aborted) return failed();
    const decision = interpretGuardReply(raw);
    if (!decision.allowed && decision.reason === GUARD_FAILED_TEXT)
      log(`external tool guard: invalid reply for ${request.toolCallId}: ${JSON.stringify(raw)}`);
    return decision;
  } catch (error) {
    log(
      `external tool guard: prepare for ${request.toolCallId} failed; denying the call: ${
        error instanceof Error ? error.message : JSON.stringify(error)
      }`,
    );
    return failed();
  }
}
