// The beforeExecute hook of a session's tools: shell tools wait for the daemon's guard once it was
// acknowledged at initialize (PrivateParentGate); everything else just runs.
import type { AgentContext } from "@agentclientprotocol/sdk";
import type { BeforeExecuteHook, SessionToolContext } from "@qwen-daemon/core";
import {
  type PrivateParentGate,
  prepareExternalTool,
  SHELL_EXECUTING_TOOL_NAMES,
} from "./external-tool-guard.js";
import type { Logger } from "./logger.js";

export function shellToolGuard({
  sessionId,
  client,
  gate,
  log,
}: {
  sessionId: string;
  client: AgentContext;
  gate: PrivateParentGate;
  log: Logger;
}): BeforeExecuteHook<SessionToolContext> {
  return async (call, ctx) => {
    if (!gate.guardActive || !SHELL_EXECUTING_TOOL_NAMES.has(call.name)) return { allowed: true };
    return prepareExternalTool(
      client,
      {
        sessionId,
        promptId: ctx.promptId,
        toolCallId: call.id,
        toolName: call.name,
        arguments: call.args,
        invocationCwd: ctx.cwd,
      },
      ctx.signal,
      (message) => log.warn(message),
    );
  };
}
