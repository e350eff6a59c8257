// Environment a daemon gives the agent process it starts for that process alone, not for the commands the agent
// runs (docs/architecture.md "Memory"). Plain data and string work with no imports, so `qwen serve` can build the
// agent's environment before its socket is bound, before core loads (package subpath
// `@qwen-daemon/core/agent-process-env`).
//
// glibc's malloc gives each thread that allocates its own arena (up to 8 per core), and freed memory stays in
// the arena it came from. In a long-running agent, V8's compiler and GC threads and libuv's file-system threads
// each fill an arena with short-lived buffers, and the holes left behind grew the agent's RSS by ~4-5 MB over
// its first 1,000 turns (bench/soak.mjs). Two arenas keep that memory reused; the agent's JavaScript runs on
// one thread and its helper threads allocate little, so they seldom wait for each other (BENCHMARKS.md, issue 20).
// glibc reads the variable when the process starts; other C libraries ignore it.

/** Lists, comma-separated, the variables the agent removes from its own environment when it starts. */
export const AGENT_ONLY_ENV = "QWEN_AGENT_ONLY_ENV";

const ARENA_MAX = "MALLOC_ARENA_MAX";

/**
 * Variables for the agent process only: MALLOC_ARENA_MAX=2 unless the daemon's own environment sets it (then
 * the agent inherits the user's value like any other, and keeps it for its commands), with the list of names
 * the agent must drop at start.
 */
export function agentOnlyEnv(
  parentEnv: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  if (parentEnv[ARENA_MAX] !== undefined) return {};
  return { [ARENA_MAX]: "2", [AGENT_ONLY_ENV]: ARENA_MAX };
}

/**
 * In the agent, at start: removes the variables its daemon set for this process alone (and the list), so the
 * shell commands and tools it starts inherit the environment the user gave the daemon.
 */
export function dropAgentOnlyEnv(env: Record<string, string | undefined>): void {
  const names = (env[AGENT_ONLY_ENV] ?? "").split(",").filter((name) => name !== "");
  for (const name of names) delete env[name];
  delete env[AGENT_ONLY_ENV];
}
