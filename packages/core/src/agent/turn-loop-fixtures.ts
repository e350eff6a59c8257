// Shared fixtures of the turn loop tests (turn-loop.test.ts, turn-loop-cancel.test.ts): runTurn against the
// fake OpenAI server over real HTTP, with an in-memory recorder. Not part of the public API.
import { vi } from "vitest";
import type { Content } from "../content.js";
import { type FakeOpenAIServer, type FakeScript, startFakeOpenAIServer } from "../testing/index.js";
import { createAskUserQuestionTool } from "../tools/ask-user-question.js";
import { ToolRegistry } from "../tools/registry.js";
import type { ApprovalMode, Tool } from "../tools/tool.js";
import type { ToolCallResult } from "../transcript/records.js";
import { Chat } from "./chat.js";
import type { ConfirmationHandler } from "./contract.js";
import { eventLog, providerFor } from "./test-support.js";
import type { TurnDeps } from "./turn-loop.js";
import type { TurnRecorder, TurnResultData } from "./turn-recorder.js";

export type Logged =
  | { type: "user" | "assistant"; message: Content }
  | { type: "tool_result"; message: Content; result: ToolCallResult }
  | { type: "turn_result"; data: TurnResultData };

export const servers: FakeOpenAIServer[] = [];

/** Closes the fake servers a test started; run afterEach. */
export async function closeTurnFixtures(): Promise<void> {
  await Promise.all(servers.splice(0).map((s) => s.close()));
}

export interface SetupOptions {
  tools?: Tool[];
  confirm?: ConfirmationHandler;
  approvalMode?: ApprovalMode;
  maxTurns?: number;
}

export async function setup(script: FakeScript, options: SetupOptions = {}) {
  const server = await startFakeOpenAIServer(script);
  servers.push(server);
  const log: Logged[] = [];
  const recorder: TurnRecorder = {
    user: async (message) => void log.push({ type: "user", message }),
    assistant: async (message) => void log.push({ type: "assistant", message }),
    toolResult: async (message, result) => void log.push({ type: "tool_result", message, result }),
    turnResult: async (data) => void log.push({ type: "turn_result", data }),
  };
  const { events, onEvent } = eventLog();
  const controller = new AbortController();
  const confirm = vi.fn(options.confirm ?? (async () => ({ outcome: "approved" as const })));
  const deps: TurnDeps = {
    chat: Chat.start([]),
    provider: providerFor(server),
    tools: new ToolRegistry(options.tools ?? [createAskUserQuestionTool()]),
    recorder,
    onEvent,
    confirm,
    cwd: "/nonexistent-workspace",
    approvalMode: () => options.approvalMode ?? "default",
    alwaysAllowed: new Set(),
    maxTurns: options.maxTurns ?? 10,
    signal: controller.signal,
  };
  return { server, deps, log, events, controller, confirm };
}

export const userStart = (text: string) => ({ kind: "user" as const, parts: [{ text }] });
export const toolResults = (log: Logged[]) =>
  log.flatMap((l) => (l.type === "tool_result" ? [l.message.parts[0]!.functionResponse!.response] : []));
