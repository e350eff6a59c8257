// Test support: spawns the real child (`node --conditions=source --import tsx src/bin.ts --acp ...`, or any
// other command such as the built `qwen` bin) and drives it with the ACP SDK's client side over its stdio.
// Permission requests and form elicitations are queued for the test to answer (or leave hanging); the
// client's files and terminal are whatever handlers the test gives; every stdout line is kept so tests can
// check stdout carries only frames.
import { type ChildProcess, spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import {
  type ClientCapabilities,
  type ClientConnection,
  type ClientContext,
  type CreateElicitationRequest,
  type CreateTerminalRequest,
  type CreateTerminalResponse,
  client,
  type InitializeResponse,
  type KillTerminalRequest,
  methods,
  ndJsonStream,
  type ReadTextFileRequest,
  type ReadTextFileResponse,
  type ReleaseTerminalRequest,
  type RequestPermissionRequest,
  type SessionNotification,
  type TerminalOutputRequest,
  type TerminalOutputResponse,
  type WaitForTerminalExitRequest,
  type WaitForTerminalExitResponse,
  type WriteTextFileRequest,
} from "@agentclientprotocol/sdk";
import {
  QUESTION_ANSWERS_CAPABILITY_META_KEY,
  RESTORE_PROMPT_CAPABILITY_META_KEY,
} from "@qwen-daemon/core/protocol";

/**
 * What the daemon advertises (it answers questions with `answers`, sends restore prompts itself): the
 * default client of these tests, which play the daemon's part.
 */
export const DAEMON_LIKE_CAPABILITIES: ClientCapabilities = {
  _meta: { [QUESTION_ANSWERS_CAPABILITY_META_KEY]: true, [RESTORE_PROMPT_CAPABILITY_META_KEY]: true },
};

export type {
  ClientCapabilities,
  CreateElicitationRequest,
  CreateTerminalRequest,
  SessionNotification,
} from "@agentclientprotocol/sdk";

const BIN = fileURLToPath(new URL("../bin.ts", import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL("../..", import.meta.url));

export interface PendingPermission {
  params: RequestPermissionRequest;
  /** JSON-RPC id of the request (a fresh one per ask). */
  requestId: string | number | null;
  respond(response: Record<string, unknown>): void;
  /** Aborted when the child withdraws the request ($/cancel_request) or the connection closes. */
  signal: AbortSignal;
}

export interface PendingElicitation {
  params: CreateElicitationRequest;
  respond(response: Record<string, unknown>): void;
  /** Aborted when the child withdraws the request ($/cancel_request) or the connection closes. */
  signal: AbortSignal;
}

/** A client's files and terminal (the methods it advertises in `clientCapabilities`). */
export interface ClientHost {
  readTextFile?(params: ReadTextFileRequest): Promise<ReadTextFileResponse>;
  writeTextFile?(params: WriteTextFileRequest): Promise<Record<string, never>>;
  terminal?: {
    create(params: CreateTerminalRequest): Promise<CreateTerminalResponse>;
    output(params: TerminalOutputRequest): Promise<TerminalOutputResponse>;
    waitForExit(params: WaitForTerminalExitRequest): Promise<WaitForTerminalExitResponse>;
    kill(params: KillTerminalRequest): Promise<Record<string, never>>;
    release(params: ReleaseTerminalRequest): Promise<Record<string, never>>;
  };
}

export interface ChildHarness {
  readonly proc: ChildProcess;
  readonly agent: ClientContext;
  readonly connection: ClientConnection;
  readonly updates: SessionNotification[];
  readonly permissions: PendingPermission[];
  readonly elicitations: PendingElicitation[];
  readonly stdoutLines: string[];
  /** The child's answer to `initialize` (sent by spawnChild). */
  readonly initialized: InitializeResponse;
  stderr(): string;
  /** Resolves with the first permission request not yet taken that matches. */
  nextPermission(match?: (p: PendingPermission) => boolean, timeoutMs?: number): Promise<PendingPermission>;
  /** Resolves with the first elicitation not yet taken that matches. */
  nextElicitation(
    match?: (e: PendingElicitation) => boolean,
    timeoutMs?: number,
  ): Promise<PendingElicitation>;
  /** Resolves with the first update (from `from` on) that matches. */
  waitForUpdate(match: (u: SessionNotification) => boolean, timeoutMs?: number): Promise<SessionNotification>;
  /** Updates received for one session. */
  updatesFor(sessionId: string): SessionNotification[];
  /** Writes raw bytes to the child's stdin (to test malformed input). */
  writeRaw(text: string): void;
  kill(): Promise<void>;
  close(): Promise<void>;
}

export interface SpawnChildOptions {
  /** The agent program and its leading arguments (default: this package's src/bin.ts under tsx). */
  command?: readonly string[];
  /** The agent's working directory (default: this package). */
  cwd?: string;
  qwenHome: string;
  modelUrl: string;
  restore: boolean;
  /** Flags after `--acp` and the restore switch (e.g. `--restore-pending-approvals`). */
  extraArgs?: readonly string[];
  /** Added to the child's env (e.g. the reference daemon's private guard variables). */
  env?: Record<string, string>;
  /** `_meta` of the initialize request. */
  initializeMeta?: Record<string, unknown>;
  /** Handlers for child -> client extension requests, by method (others get -32601). */
  clientMethods?: Record<string, (params: Record<string, unknown>) => unknown>;
  /** `clientCapabilities` of the initialize request (default {@link DAEMON_LIKE_CAPABILITIES}). */
  clientCapabilities?: ClientCapabilities;
  /** The client's files and terminal; advertise them in `clientCapabilities` too. */
  host?: ClientHost;
}

export async function spawnChild(options: SpawnChildOptions): Promise<ChildHarness> {
  const [program, ...leading] = options.command ?? [
    process.execPath,
    "--conditions=source",
    "--import",
    "tsx",
    BIN,
  ];
  const args = [...leading, "--acp"];
  if (options.restore) args.push("--restore-ask-user-question");
  args.push(...(options.extraArgs ?? []));
  const proc = spawn(program as string, args, {
    cwd: options.cwd ?? PACKAGE_DIR,
    env: {
      PATH: process.env.PATH,
      HOME: options.qwenHome,
      QWEN_HOME: options.qwenHome,
      OPENAI_BASE_URL: options.modelUrl,
      OPENAI_API_KEY: "x",
      OPENAI_MODEL: "fake",
      ...options.env,
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  proc.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));

  const stdoutLines: string[] = [];
  let partial = "";
  const tee = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      partial += Buffer.from(chunk).toString("utf8");
      const lines = partial.split("\n");
      partial = lines.pop() ?? "";
      stdoutLines.push(...lines.filter((l) => l.length > 0));
      controller.enqueue(chunk);
    },
  });
  const input = (Readable.toWeb(proc.stdout!) as ReadableStream<Uint8Array>).pipeThrough(tee);
  const output = Writable.toWeb(proc.stdin!) as WritableStream<Uint8Array>;

  const updates: SessionNotification[] = [];
  const permissions: PendingPermission[] = [];
  const elicitations: PendingElicitation[] = [];
  const taken = new Set<unknown>();
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const check of [...waiters]) check();
  };
  const waitFor = <T>(find: () => T | undefined, what: string, timeoutMs: number) =>
    new Promise<T>((resolve, reject) => {
      const check = () => {
        const found = find();
        if (found === undefined) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(
          new Error(`timed out after ${timeoutMs} ms waiting for ${what}\n--- child stderr ---\n${stderr}`),
        );
      }, timeoutMs);
      waiters.add(check);
      check();
    });

  let app = client({ name: "test-client" })
    .onRequest(methods.client.session.requestPermission, ({ params, requestId, signal }) => {
      return new Promise((resolve) => {
        permissions.push({ params, requestId, signal, respond: (response) => resolve(response as never) });
        notify();
      });
    })
    .onRequest(methods.client.elicitation.create, ({ params, signal }) => {
      return new Promise((resolve) => {
        elicitations.push({ params, signal, respond: (response) => resolve(response as never) });
        notify();
      });
    })
    .onNotification(methods.client.session.update, ({ params }) => {
      updates.push(params);
      notify();
    });
  const host = options.host ?? {};
  const { readTextFile, writeTextFile, terminal } = host;
  if (readTextFile) app = app.onRequest(methods.client.fs.readTextFile, ({ params }) => readTextFile(params));
  if (writeTextFile)
    app = app.onRequest(methods.client.fs.writeTextFile, ({ params }) => writeTextFile(params));
  if (terminal) {
    app = app
      .onRequest(methods.client.terminal.create, ({ params }) => terminal.create(params))
      .onRequest(methods.client.terminal.output, ({ params }) => terminal.output(params))
      .onRequest(methods.client.terminal.waitForExit, ({ params }) => terminal.waitForExit(params))
      .onRequest(methods.client.terminal.kill, ({ params }) => terminal.kill(params))
      .onRequest(methods.client.terminal.release, ({ params }) => terminal.release(params));
  }
  const raw = { parse: (p: unknown) => p as Record<string, unknown> };
  for (const [method, handle] of Object.entries(options.clientMethods ?? {})) {
    app = app.onRequest(method, raw, async ({ params }) => handle(params) as never);
  }
  const connection = app.connect(ndJsonStream(output, input));

  let initialized: InitializeResponse;
  try {
    initialized = await connection.agent.request(methods.agent.initialize, {
      protocolVersion: 1,
      clientCapabilities: options.clientCapabilities ?? DAEMON_LIKE_CAPABILITIES,
      ...(options.initializeMeta ? { _meta: options.initializeMeta } : {}),
    });
  } catch (error) {
    // A refused initialize leaves no harness to close: stop the child here, then report the refusal.
    connection.close();
    proc.kill("SIGKILL");
    await exited;
    throw error;
  }
  return {
    initialized,
    proc,
    agent: settledAfterResponse(connection.agent),
    connection,
    updates,
    permissions,
    elicitations,
    stdoutLines,
    stderr: () => stderr,
    nextPermission: (match = () => true, timeoutMs = 15_000) =>
      waitFor(
        () => {
          const found = permissions.find((p) => !taken.has(p) && match(p));
          if (found) taken.add(found);
          return found;
        },
        "a permission request",
        timeoutMs,
      ),
    nextElicitation: (match = () => true, timeoutMs = 15_000) =>
      waitFor(
        () => {
          const found = elicitations.find((e) => !taken.has(e) && match(e));
          if (found) taken.add(found);
          return found;
        },
        "an elicitation",
        timeoutMs,
      ),
    waitForUpdate: (match, timeoutMs = 15_000) =>
      waitFor(() => updates.find(match), "a session/update", timeoutMs),
    updatesFor: (sessionId) => updates.filter((u) => u.sessionId === sessionId),
    writeRaw: (text) => {
      proc.stdin!.write(text);
    },
    kill: async () => {
      proc.kill("SIGKILL");
      await exited;
      connection.close();
    },
    close: async () => {
      connection.close();
      proc.stdin!.end();
      const timer = setTimeout(() => proc.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * The SDK resolves a request as soon as its response is read, while the handlers of the notifications read
 * just before it (a load's replay) still wait in the microtask queue. A test reads `updates` right after the
 * response, so each response is handed over only once a macrotask has let those handlers run: the test then
 * sees what the wire order says it must.
 */
function settledAfterResponse(agent: ClientContext): ClientContext {
  return new Proxy(agent, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (key !== "request" || typeof value !== "function") return value;
      return async (...args: unknown[]) => {
        const result = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        await new Promise<void>((resolve) => setImmediate(resolve));
        return result;
      };
    },
  });
}
