// The restore tests' child and client (restore.test.ts for questions, restore-approvals.test.ts for approvals):
// a scripted child with session s1 on disk whose load hints a restore, and that asks its trailing request again
// when the daemon's restore prompt carries the same key; and the load a client sends for s1.
import type { AgentPeer, ScriptedAgentOptions } from "./scripted-agent.js";
import type { TestDaemon, TestResponse } from "./test-daemon.js";

/** What a session's history holds on disk: one user message. */
export const userSaid = (text: string) => [
  { sessionUpdate: "user_message_chunk", content: { type: "text", text } },
];

/**
 * A child whose s1 (`history` on disk) hints `hintKey` on load and, given a restore prompt with that key, asks
 * `request` again; the daemon's answers land in `answers`. Any other prompt just ends.
 */
export function restoringAgent(
  hintKey: string,
  history: Array<Record<string, unknown>>,
  request: (sessionId: string) => Record<string, unknown>,
  answers: Array<Record<string, unknown>>,
): Required<Pick<ScriptedAgentOptions, "persisted" | "restoreMeta" | "prompt">> {
  return {
    persisted: { s1: history },
    restoreMeta: { s1: { [hintKey]: true } },
    prompt: async (params, peer: AgentPeer) => {
      const meta = params._meta as Record<string, unknown>;
      if (meta[hintKey] !== true) return { stopReason: "end_turn" };
      answers.push(await peer.requestPermission(request(String(params.sessionId))));
      return { stopReason: "end_turn" };
    },
  };
}

/** POST /session/s1/load, with the client id of before the restart when given (none: no header). */
export function loadS1(d: TestDaemon, clientId?: string): Promise<TestResponse> {
  return d.request("POST", "/session/s1/load", {
    body: {},
    ...(clientId === undefined ? {} : { headers: { "X-Qwen-Client-Id": clientId } }),
  });
}
