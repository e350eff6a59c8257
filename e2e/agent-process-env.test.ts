// docs/architecture.md "Memory", through real processes: `qwen serve` starts its own agent with glibc's malloc
// capped at two arenas (MALLOC_ARENA_MAX=2) unless the user's environment sets the variable, and the agent
// removes what it was given for itself alone, so a shell command it runs sees the environment the user gave the
// daemon: no MALLOC_ARENA_MAX it did not set, the user's value when it did.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeReply, lastMessage, messageText, reply } from "@qwen-daemon/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALLOW } from "./crash/approval-run.js";
import type { DaemonProcess } from "./harness/daemon-process.js";
import { useE2eWorld } from "./harness/e2e-world.js";
import { descendantsOf } from "./harness/process-tree.js";
import { createSession, openEvents, sendPrompt, vote } from "./harness/session-api.js";

const ENV_DUMP = "env.txt";

const world = useE2eWorld(() => (request): FakeReply => {
  if (lastMessage(request)?.role === "tool") return reply.text("done");
  if (messageText(lastMessage(request)).startsWith("ENV"))
    return reply.toolCalls([{ name: "run_shell_command", args: { command: `env > ${ENV_DUMP}` } }]);
  return reply.text("ok");
});

// The daemons inherit this process's environment: the default case needs it without the variable.
const inherited = process.env.MALLOC_ARENA_MAX;
beforeAll(() => {
  delete process.env.MALLOC_ARENA_MAX;
});
afterAll(() => {
  if (inherited !== undefined) process.env.MALLOC_ARENA_MAX = inherited;
});

/** The environment a process was started with (what glibc read), as NAME=value lines. */
function startEnvironment(pid: number): string[] {
  return readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
}

/** The agent's pid, and the environment of a shell command it ran (approved) as `env` printed it. */
async function agentAndToolEnv(daemon: DaemonProcess): Promise<{ agent: number; tool: string[] }> {
  const { sessionId, clientId } = await createSession(daemon);
  const events = await openEvents(daemon, sessionId);
  await sendPrompt(daemon, sessionId, clientId, "ENV dump");
  const asked = (await events.waitForEvent("permission_request")).json?.data as { requestId: string };
  expect(await vote(daemon, sessionId, asked.requestId, clientId, ALLOW)).toEqual({ status: 200, body: {} });
  await events.waitForEvent("turn_complete");
  await events.close();
  const [agent] = descendantsOf(daemon.pid);
  if (agent === undefined) throw new Error("the daemon has no agent process");
  const tool = readFileSync(join(world.env.workspace, ENV_DUMP), "utf8").split("\n");
  return { agent, tool };
}

describe("the agent's own environment", () => {
  it("the agent starts with MALLOC_ARENA_MAX=2; the commands it runs do not inherit it", async () => {
    const daemon = await world.env.startDaemon();
    const { agent, tool } = await agentAndToolEnv(daemon);
    expect(startEnvironment(agent)).toContain("MALLOC_ARENA_MAX=2");
    expect(startEnvironment(daemon.pid).filter((line) => line.startsWith("MALLOC_ARENA_MAX="))).toEqual([]);
    expect(tool).toContain("OPENAI_MODEL=fake"); // the dump is the tool's environment
    expect(tool.filter((line) => /^(MALLOC_ARENA_MAX|QWEN_AGENT_ONLY_ENV)=/.test(line))).toEqual([]);
  });

  it("a MALLOC_ARENA_MAX the user set reaches the agent and its commands unchanged", async () => {
    const daemon = await world.env.startDaemon([], { MALLOC_ARENA_MAX: "4" });
    const { agent, tool } = await agentAndToolEnv(daemon);
    expect(startEnvironment(agent)).toContain("MALLOC_ARENA_MAX=4");
    expect(tool).toContain("MALLOC_ARENA_MAX=4");
    expect(tool.filter((line) => line.startsWith("QWEN_AGENT_ONLY_ENV="))).toEqual([]);
  });
});
