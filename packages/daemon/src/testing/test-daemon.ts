// An in-process daemon for route tests: the real app and Sessions over a ScriptedAgent, driven
// with `app.request` (no sockets). Also small helpers to read SSE frames from a response.
import { type MemorySessionStorage, memorySessionStorage, type SessionLeases } from "@qwen-daemon/core";
import type { Hono } from "hono";
import { type AnswerJournal, memoryAnswerJournal } from "../answers/answer-journal.js";
import { createApp } from "../app.js";
import type { Clock } from "../events/clock.js";
import { systemClock } from "../events/clock.js";
import { LinkAnswers } from "../links/link-answers.js";
import type { LinkKey } from "../links/link-key.js";
import { RequestWaits } from "../links/request-waits.js";
import type { PermissionPolicy } from "../permission/policy.js";
import { coreSessionStore } from "../persisted/core-session-store.js";
import type { SessionStore } from "../persisted/session-store.js";
import { memoryPromptJournal, type PromptJournal } from "../prompts/prompt-journal.js";
import { memorySessionNames } from "../sessions/session-names.js";
import { Sessions } from "../sessions/sessions.js";
import { checkAgainstContract } from "./contract-check.js";
import { ScriptedAgent, type ScriptedAgentOptions } from "./scripted-agent.js";

export const TEST_WORKSPACE = "/work/test-workspace";

export type TestDaemonOptions = {
  workspace?: string;
  agent?: ScriptedAgentOptions;
  /**
   * What the children left in storage (testing/stored-sessions.ts), read back by the daemon's real store;
   * the daemon's own journals and names are kept there too. Default: an empty storage in memory.
   */
  storage?: MemorySessionStorage;
  /** Default: the real store over `storage`. A test wraps it to watch or break a read. */
  store?: SessionStore;
  /** Default: a fresh in-memory journal. */
  answerJournal?: AnswerJournal;
  /** Default: a fresh in-memory journal. */
  promptJournal?: PromptJournal;
  clock?: Clock;
  token?: string;
  hostname?: string;
  allowOrigins?: string[];
  restoreAskUserQuestion?: boolean;
  restorePendingApprovals?: boolean;
  maxSessions?: number;
  maxPendingPromptsPerSession?: number;
  eventRingSize?: number;
  permissionPolicy?: PermissionPolicy;
  consensusQuorum?: number;
  permissionResponseTimeoutMs?: number;
  webRoot?: string;
  /** Default: no cap. */
  maxEventStreams?: number;
  /** Shared storage's session leases (docs/storage.md); default none (JSONL). */
  leases?: SessionLeases;
  /** Serve answer links (`/a/:capability`) checked with this key. */
  links?: { key: LinkKey; allowLinkAnswers?: boolean; maxFailures?: number };
};

// biome-ignore lint/suspicious/noExplicitAny: response bodies in tests are asserted field by field
export type JsonBody = any;

/** A Response whose `json()` is typed for assertions. */
export interface TestResponse extends Response {
  json(): Promise<JsonBody>;
}

/** `res.json()` typed for assertions (for responses from `fetch`). */
export function jsonOf(res: Response): Promise<JsonBody> {
  return res.json();
}

export type TestDaemon = {
  app: Hono;
  sessions: Sessions;
  agent: ScriptedAgent;
  logs: string[];
  request(
    method: string,
    path: string,
    init?: { body?: unknown; headers?: Record<string, string | undefined>; env?: unknown },
  ): Promise<TestResponse>;
  /** POST /session and return its JSON. */
  createSession(body?: Record<string, unknown>): Promise<{ sessionId: string; clientId: string }>;
};

export function createTestDaemon(options: TestDaemonOptions = {}): TestDaemon {
  const logs: string[] = [];
  const log = (line: string) => logs.push(line);
  const clock = options.clock ?? systemClock;
  const storage = options.storage ?? memorySessionStorage();
  const agent = new ScriptedAgent(options.agent);
  const waits = new RequestWaits(clock);
  const sessions = new Sessions({
    workspace: options.workspace ?? TEST_WORKSPACE,
    restoreAskUserQuestion: options.restoreAskUserQuestion ?? false,
    restorePendingApprovals: options.restorePendingApprovals ?? false,
    maxSessions: options.maxSessions ?? 8,
    maxPendingPromptsPerSession: options.maxPendingPromptsPerSession ?? 5,
    eventRingSize: options.eventRingSize ?? 8000,
    permission: {
      policy: options.permissionPolicy ?? "first-responder",
      consensusQuorum: options.consensusQuorum,
      timeoutMs: options.permissionResponseTimeoutMs ?? 0,
    },
    channelFactory: agent.factory,
    store: options.store ?? coreSessionStore(storage),
    // The daemon's own journals and names, in the same storage as the transcripts (as in production).
    answerJournal: options.answerJournal ?? memoryAnswerJournal(storage),
    promptJournal: options.promptJournal ?? memoryPromptJournal(storage),
    names: memorySessionNames(storage),
    clock,
    log,
    checkEvents: true,
    ...(options.leases !== undefined ? { leases: options.leases } : {}),
    observeEvent: (source, event) => waits.observe(source.sessionId, event),
  });
  const links =
    options.links &&
    new LinkAnswers({
      sessions,
      key: options.links.key,
      allowLinkAnswers: options.links.allowLinkAnswers ?? false,
      clock,
      waits,
      log,
      ...(options.links.maxFailures !== undefined ? { maxFailures: options.links.maxFailures } : {}),
    });
  const app = createApp({
    sessions,
    hostname: options.hostname ?? "127.0.0.1",
    token: options.token,
    allowOrigins: options.allowOrigins ?? [],
    maxConnections: 64,
    maxEventStreams: options.maxEventStreams ?? 0,
    webRoot: options.webRoot,
    clock,
    heartbeatMs: 0,
    startedAt: clock.now(),
    log,
    links,
  });
  const request: TestDaemon["request"] = async (method, path, init = {}) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(init.headers ?? {}))
      if (value !== undefined) headers[name] = value;
    let body: string | undefined;
    if (init.body !== undefined) {
      body = typeof init.body === "string" ? init.body : JSON.stringify(init.body);
      headers["content-type"] ??= "application/json";
    }
    const response = await app.request(
      path,
      { method, headers, ...(body !== undefined ? { body } : {}) },
      init.env as never,
    );
    await checkAgainstContract(method, path, response);
    return response as TestResponse;
  };
  return {
    app,
    sessions,
    agent,
    logs,
    request,
    async createSession(body = {}) {
      const res = await request("POST", "/session", { body });
      if (res.status !== 200) throw new Error(`POST /session failed: ${res.status} ${await res.text()}`);
      return (await res.json()) as { sessionId: string; clientId: string };
    },
  };
}

export type SseFrame = {
  id?: number;
  event?: string;
  data?: Record<string, unknown>;
  comment?: string;
  retry?: number;
};

/** Parses SSE text into frames (comments and `retry:` included, so tests can assert them). */
export function parseSse(text: string): SseFrame[] {
  const frames: SseFrame[] = [];
  for (const block of text.split("\n\n")) {
    if (block.trim() === "") continue;
    const frame: SseFrame = {};
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) frame.comment = line.slice(1).trim();
      else if (line.startsWith("id: ")) frame.id = Number(line.slice(4));
      else if (line.startsWith("event: ")) frame.event = line.slice(7);
      else if (line.startsWith("data: ")) frame.data = JSON.parse(line.slice(6)) as Record<string, unknown>;
      else if (line.startsWith("retry: ")) frame.retry = Number(line.slice(7));
    }
    frames.push(frame);
  }
  return frames;
}

/** Reads an SSE response until `done(frames)` holds (or the stream ends), then cancels it. */
export async function readSseUntil(
  res: Response,
  done: (frames: SseFrame[]) => boolean,
): Promise<SseFrame[]> {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    for (;;) {
      const frames = parseSse(text.slice(0, text.lastIndexOf("\n\n") + 2));
      if (done(frames)) return frames;
      const { done: ended, value } = await reader.read();
      if (ended) return parseSse(text);
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    await reader.cancel();
  }
}

/** Resolves once `predicate` holds, polling the microtask/timer queue (no fixed sleeps). */
export async function waitFor(predicate: () => boolean, what = "condition", attempts = 500): Promise<void> {
  for (let i = 0; i < attempts; i += 1) {
    if (predicate()) return;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error(`timed out waiting for ${what}`);
}
