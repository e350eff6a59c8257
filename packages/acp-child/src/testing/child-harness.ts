// Test support: spawns the real child (`node --conditions=source --import tsx src/bin.ts --acp ...`) and
// drives it with the ACP SDK's client side over its stdio. Permission requests are queued for the test to
// answer (or leave hanging); every stdout line is kept so tests can check stdout carries only frames.
import { type ChildProcess, spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import {
  type ClientConnection,
  type ClientContext,
  client,
  type InitializeResponse,
  methods,
  ndJsonStream,
  type RequestPermissionRequest,
  type SessionNotification,
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

export interface ChildHarness {
  readonly proc: ChildProcess;
  readonly agent: ClientContext;
  readonly connection: ClientConnection;
  readonly updates: SessionNotification[];
  readonly permissions: PendingPermission[];
  readonly stdoutLines: string[];
  /** The child's answer to `initialize` (sent by spawnChild). */
  readonly initialized: InitializeResponse;
  stderr(): string;
  /** Resolves with the first permission request not yet taken that matches. */
  nextPermission(match?: (p: PendingPermission) => boolean, timeoutMs?: number): Promise<PendingPermission>;
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
  qwenHome: string;
  modelUrl: string;
  restore: boolean;
  /** Added to the child's env (e.g. the reference daemon's private guard variables). */
  env?: Record<string, string>;
  /** `_meta` of the initialize request. */
  initializeMeta?: Record<string, unknown>;
  /** Handlers for child -> client extension requests, by method (others get -32601). */
  clientMethods?: Record<string, (params: Record<string, unknown>) => unknown>;
}

export async function spawnChild(options: SpawnChildOptions): Promise<ChildHarness> {
  const args = ["--conditions=source", "--import", "tsx", BIN, "--acp"];
  if (options.restore) args.push("--restore-ask-user-question");
  const proc = spawn(process.execPath, args, {
    cwd: PACKAGE_DIR,
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
  const taken = new Set<PendingPermission>();
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
    .onNotification(methods.client.session.update, ({ params }) => {
      updates.push(params);
      notify();
    });
  const raw = { parse: (p: unknown) => p as Record<string, unknown> };
  for (const [method, handle] of Object.entries(options.clientMethods ?? {})) {
    app = app.onRequest(method, raw, async ({ params }) => handle(params) as never);
  }
  const connection = app.connect(ndJsonStream(output, input));

  let initialized: InitializeResponse;
  try {
    initialized = await connection.agent.request(methods.agent.initialize, {
      protocolVersion: 1,
      clientCapabilities: {},
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
    agent: connection.agent,
    connection,
    updates,
    permissions,
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
