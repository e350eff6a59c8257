// Shared fixtures of the agent tests (turn-loop.test.ts, agent-session.test.ts); not part of the public API.
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Config } from "../config.js";
import { OpenAICompatibleProvider } from "../model/openai-provider.js";
import type { RestoreKindName } from "../protocol/restore-kinds.js";
import { chatsDir } from "../storage/jsonl/paths.js";
import type { FakeOpenAIServer } from "../testing/index.js";
import type { ConfirmationKind, Tool } from "../tools/tool.js";
import type { AgentEvent, ConfirmationHandler } from "./contract.js";

export interface TempWorkspace {
  qwenHome: string;
  cwd: string;
  remove(): Promise<void>;
}

export async function tempWorkspace(): Promise<TempWorkspace> {
  const root = await mkdtemp(join(tmpdir(), "agent-test-"));
  return {
    qwenHome: join(root, "qwen-home"),
    cwd: root,
    remove: () => rm(root, { recursive: true, force: true }),
  };
}

/** The real provider over HTTP against the fake server; retries sleep for 0 ms. */
export function providerFor(server: FakeOpenAIServer): OpenAICompatibleProvider {
  return new OpenAICompatibleProvider({
    baseUrl: server.url,
    apiKey: "sk-test",
    model: "fake-model",
    sleep: async () => {},
  });
}

export const COLOR_ANSWER_TEXT = "User has provided the following answers:\n\n**Color**: Blue";

/** A tool that records its calls and returns `output`. */
export function recordingTool(
  name: string,
  confirmation: ConfirmationKind,
  output = `${name} done`,
): Tool & { calls: Record<string, unknown>[] } {
  const calls: Record<string, unknown>[] = [];
  return {
    calls,
    name,
    description: `Test tool ${name}`,
    parameters: { type: "object", properties: {} },
    confirmation,
    // A test tool waits for what it is confirmed as (every ConfirmationKind is a restore class).
    restoreClass: confirmation,
    validate: () => undefined,
    describe: () => ({ title: `Run ${name}`, uiKind: "other" }),
    execute: async (args) => {
      calls.push(args);
      return { output };
    },
  };
}

/**
 * `opts` for a load the host will not restore `kind` on (nobody to ask, a fork): the way a host says so, on the
 * session's own Config, as the agent does for a request's suppress key.
 */
export function suppressed<T extends { config: Config }>(opts: T, kind: RestoreKindName = "question"): T {
  if (kind === "question") opts.config.suppressRestorableAskUserQuestionPreservation();
  else opts.config.suppressRestorablePreservation(kind);
  return opts;
}

export function eventLog(): { events: AgentEvent[]; onEvent: (e: AgentEvent) => void } {
  const events: AgentEvent[] = [];
  return { events, onEvent: (e) => events.push(e) };
}

/** Where a simulated crash's copy of a workspace's session files goes. */
export function crashedHomeOf(ws: { cwd: string }): { qwenHome: string; cwd: string } {
  return { qwenHome: join(ws.cwd, "crashed-home"), cwd: ws.cwd };
}

/**
 * A confirm that copies the session files into `crashed` at the instant it is asked (what a SIGKILL then would
 * leave on disk), then lets the original end unattended.
 */
export function crashCopyOnAsk(
  ws: { qwenHome: string; cwd: string },
  crashed: { qwenHome: string; cwd: string },
): ConfirmationHandler {
  return async () => {
    await cp(chatsDir(ws.qwenHome, ws.cwd), chatsDir(crashed.qwenHome, crashed.cwd), { recursive: true });
    return { outcome: "unattended", reason: "session_closed" };
  };
}
