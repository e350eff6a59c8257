// What the agent does for each restore kind of the contract's table (protocol/restore-kinds.ts): which calls of a
// session that kind would ask again now, and the restore prompt that asks them. One entry per kind, checked by
// the compiler against the table, so the ACP layer (sessions.ts) walks kinds instead of naming each.
import type { AgentPromptOptions, AgentSession, FunctionCall, StopReason } from "@qwen-daemon/core";
import type { RestoreKindName } from "@qwen-daemon/core/protocol";

export interface AgentRestore {
  /** The calls this restore would ask again now (undefined with its switch off or nothing to ask). */
  restorable(agent: AgentSession): { functionCalls: FunctionCall[] } | undefined;
  /** Runs the restore prompt that asks them again. */
  run(agent: AgentSession, opts: AgentPromptOptions): Promise<{ stopReason: StopReason }>;
}

export const AGENT_RESTORES: { readonly [K in RestoreKindName]: AgentRestore } = {
  question: {
    restorable: (agent) => agent.restorableQuestion(),
    run: (agent, opts) => agent.restoreQuestion(opts),
  },
  approvals: {
    restorable: (agent) => agent.restorableApprovals(),
    run: (agent, opts) => agent.restorePendingApprovals(opts),
  },
};

/** The ids of the calls `kind` would ask again now, or undefined. */
export function restorableCallIds(
  kind: RestoreKindName,
  agent: AgentSession,
): ReadonlySet<string> | undefined {
  const calls = AGENT_RESTORES[kind].restorable(agent)?.functionCalls;
  return calls === undefined ? undefined : new Set(calls.flatMap((c) => (c.id ? [c.id] : [])));
}
