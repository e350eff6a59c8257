// Shared fixtures of the AgentSession tests (agent-session.test.ts, agent-session-load.test.ts): a session
// against the fake OpenAI server over real HTTP, with transcripts in temp dirs. A "crash" is simulated by
// copying the session's files at the instant the question is asked (what a SIGKILL would leave) into another
// QWEN_HOME, and loading from there. Not part of the public API.
import { Config } from "../config.js";
import { jsonlSessionStorage } from "../storage/jsonl/jsonl-storage.js";
import { transcriptPath } from "../storage/jsonl/paths.js";
import {
  askUserQuestionCall,
  DEFAULT_QUESTION,
  type FakeOpenAIServer,
  type FakeScript,
  startFakeOpenAIServer,
} from "../testing/index.js";
import { createAskUserQuestionTool } from "../tools/ask-user-question.js";
import { ToolRegistry } from "../tools/registry.js";
import { PromptLedger } from "../transcript/ledger.js";
import { readTranscript } from "../transcript/reader.js";
import type { TranscriptRecord } from "../transcript/records.js";
import { type AgentPromptOptions, AgentSession, type AgentSessionOptions } from "./agent-session.js";
import type { ConfirmationHandler } from "./contract.js";
import { SessionClosedAbort } from "./contract.js";
import {
  crashCopyOnAsk,
  crashedHomeOf,
  providerFor,
  type TempWorkspace,
  tempWorkspace,
} from "./test-support.js";

export const SESSION = "session-1";
export const QUESTION_ID = "call_question_1";

const servers: FakeOpenAIServer[] = [];
const workspaces: TempWorkspace[] = [];
const sessions: AgentSession[] = [];

/** Closes the sessions, the fake servers (`server` too) and the workspaces a test opened; run afterEach. */
export async function closeFixtures(server?: FakeOpenAIServer): Promise<void> {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
  await Promise.all([server, ...servers.splice(0)].map((s) => s?.close()));
  await Promise.all(workspaces.splice(0).map((w) => w.remove()));
}

export async function workspace(): Promise<TempWorkspace> {
  const ws = await tempWorkspace();
  workspaces.push(ws);
  return ws;
}

export function options(
  ws: { qwenHome: string; cwd: string },
  s: FakeOpenAIServer,
  extra: Partial<AgentSessionOptions> & { restore?: boolean } = {},
): AgentSessionOptions {
  const { restore, ...rest } = extra;
  return {
    sessionId: SESSION,
    cwd: ws.cwd,
    storage: jsonlSessionStorage(ws.qwenHome),
    provider: providerFor(s),
    config: new Config({ restoreAskUserQuestion: restore === true }),
    tools: new ToolRegistry([createAskUserQuestionTool()]),
    onEvent: () => {},
    confirm: async () => ({ outcome: "rejected" }),
    ...rest,
  };
}

export async function track(session: Promise<AgentSession>): Promise<AgentSession> {
  const s = await session;
  sessions.push(s);
  return s;
}

export const prompt = (id: string): AgentPromptOptions => ({
  promptId: id,
  signal: new AbortController().signal,
});
export const text = (t: string) => [{ text: t }];
export const answered =
  (answers: Record<string, string>): ConfirmationHandler =>
  async () => ({ outcome: "approved", answers });
/** A host whose connection ends while it is asked: the session is closed and the request fails with it. */
export const hostGoneWhileAsking =
  (controller: AbortController, code?: "session_closed" | "daemon_lost"): ConfirmationHandler =>
  (_request, signal) =>
    new Promise((_resolve, reject) => {
      signal.addEventListener("abort", () => reject(new Error("connection closed")));
      controller.abort(new SessionClosedAbort("connection closed", code));
    });
export const questionReply = () =>
  askUserQuestionCall([DEFAULT_QUESTION], { id: QUESTION_ID, text: "Let me ask." });
export const readRecords = async (ws: { qwenHome: string; cwd: string }) =>
  (await readTranscript(transcriptPath(ws.qwenHome, ws.cwd, SESSION))).records;
export const ledgerOf = (ws: { qwenHome: string; cwd: string }) =>
  PromptLedger.forSession({
    storage: jsonlSessionStorage(ws.qwenHome),
    cwd: ws.cwd,
    sessionId: SESSION,
  }).read();
export const responsesOf = (records: readonly TranscriptRecord[]) =>
  records.flatMap((r) =>
    r.type === "tool_result" ? r.message.parts.map((p) => p.functionResponse?.response) : [],
  );

/**
 * Runs prompt "p1" until its question is asked, copies the session's files into a fresh QWEN_HOME at that
 * instant (the state a kill leaves), then lets the original end unattended. Returns the crashed copy.
 */
export async function crashWhileAsking(script: FakeScript = [questionReply()]) {
  const ws = await workspace();
  const server = await startFakeOpenAIServer(script);
  servers.push(server);
  const crashed = crashedHomeOf(ws);
  const original = await track(
    AgentSession.create(
      options(ws, server, {
        confirm: crashCopyOnAsk(ws, crashed),
      }),
    ),
  );
  await original.prompt(text("pick a color"), prompt("p1"));
  return { server, crashed };
}
