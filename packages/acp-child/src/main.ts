// Production entry of the ACP agent: wires stdio (or any byte streams) to the method table and core.
// stdout carries protocol frames only; every diagnostic goes to the injected logger (stderr by default).
import { Readable, Writable } from "node:stream";
import { ndJsonStream } from "@agentclientprotocol/sdk";
import { STORAGE_ENV } from "@qwen-daemon/core";
import { dropAgentOnlyEnv } from "@qwen-daemon/core/agent-process-env";
import { RESTORE_KINDS } from "@qwen-daemon/core/protocol";
import pkg from "../package.json" with { type: "json" };
import { createAcpAgent } from "./agent.js";
import { createCoreRuntime } from "./core-runtime.js";
import { readPrivateParentEnv, scrubPrivateParentEnv } from "./external-tool-guard.js";
import { type Logger, stderrLogger } from "./logger.js";
import { type AcpChildOptions, DEFAULT_ACP_CHILD_OPTIONS, parseAcpArgv } from "./options.js";
import type { AgentRuntime } from "./runtime.js";

/** What `initialize` tells clients about this agent; the version is this package's own. */
export const AGENT_INFO = { name: "qwen-daemon", version: pkg.version } as const;

export interface RunAcpAgentOptions {
  /** Bytes from the client (process.stdin), as a Node or web stream. */
  input: NodeJS.ReadableStream | ReadableStream<Uint8Array>;
  /** Bytes to the client (process.stdout), as a Node or web stream. */
  output: NodeJS.WritableStream | WritableStream<Uint8Array>;
  /** Parsed switches (the cli passes these) ... */
  options?: Partial<AcpChildOptions>;
  /** ... or the raw flags (`--acp --restore-ask-user-question`), parsed with the same gating. */
  argv?: readonly string[];
  /**
   * Defaults to process.env. The reference daemon's private guard variables are read from it once, and
   * always deleted from process.env, so tool subprocesses never inherit them.
   */
  env?: Readonly<Record<string, string | undefined>>;
  log?: Logger;
  /** Defaults to the production core wiring; tests may inject another. */
  runtime?: AgentRuntime;
  /** Workspace for requests that name none; defaults to process.cwd(). */
  cwd?: string;
  /**
   * SIGTERM / SIGINT close every session cleanly (turns cut short are ledgered `interrupted`, a waiting
   * question stays restorable) before the process exits; a second signal exits at once. For processes
   * that run one agent (bin.ts, `qwen --acp`); in-process tests leave it off.
   */
  handleSignals?: boolean;
}

export interface RunningAcpAgent {
  /** Resolves once the client has gone (input ended) and every session is closed. */
  closed: Promise<void>;
  /** Ends the connection and closes every session deliberately (turns cut short are ledgered session_closed). */
  close(): Promise<void>;
}

/**
 * Starts the agent and resolves once the client disconnects and all sessions are closed (so `await
 * runAcpAgent(...)` in a bin returns when stdin ends). Use `startAcpAgent` to keep a handle instead.
 */
export async function runAcpAgent(run: RunAcpAgentOptions): Promise<void> {
  const agent = startAcpAgent(run);
  if (run.handleSignals) {
    let signalled = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (signalled) process.exit(130);
      signalled = true;
      (run.log ?? stderrLogger()).info(`${signal}: closing sessions`);
      // `closed` below settles once close() is done; its failure is reported by the caller.
      agent.close().catch((error: unknown) => {
        process.stderr.write(`qwen-acp: closing on ${signal} failed: ${String(error)}\n`);
        process.exit(1);
      });
    };
    process.on("SIGTERM", onSignal);
    process.on("SIGINT", onSignal);
  }
  await agent.closed;
}

export function startAcpAgent(run: RunAcpAgentOptions): RunningAcpAgent {
  const log = run.log ?? stderrLogger();
  const options = resolveOptions(run);
  // What the daemon set for this process alone (glibc read it at exec) is not for the commands it runs.
  dropAgentOnlyEnv(process.env);
  // A copy: the storage variables are read from it below after they left process.env.
  const env = { ...(run.env ?? process.env) };
  const privateParent = readPrivateParentEnv(env);
  scrubPrivateParentEnv(process.env);
  // The storage URL may hold the database password: tool subprocesses (shell commands) never inherit it.
  for (const name of Object.values(STORAGE_ENV)) delete process.env[name];
  if (privateParent.guardRequired && privateParent.capability === undefined)
    log.warn("external tool guard requested without a parent capability: ignored (no ack will be sent)");
  const runtime = run.runtime ?? createCoreRuntime({ env, options, log });
  log.info(
    `ACP agent ready (${RESTORE_KINDS.map((kind) => `${kind.flag.slice("--".length)} ${options[kind.switch] ? "on" : "off"}`).join(", ")}` +
      `${options.experimentalLsp ? ", experimental LSP requested (no LSP features yet)" : ""})`,
  );
  const acp = createAcpAgent({
    runtime,
    options,
    log,
    defaultCwd: run.cwd ?? process.cwd(),
    agentInfo: AGENT_INFO,
    privateParent,
  });
  const stream = ndJsonStream(toWebWritable(run.output), toWebReadable(run.input));
  const connection = acp.app.connect(stream);
  let shutdown: Promise<void> | undefined;
  // The first reason wins: a signal's deliberate close also ends the connection, which then finds it done.
  const close = (code: "session_closed" | "daemon_lost" = "session_closed") => {
    shutdown ??= (async () => {
      connection.close();
      await acp.closeAll(code);
      await runtime.close();
    })();
    return shutdown;
  };
  const closed = connection.closed.then(
    () => close("daemon_lost"),
    async (error: unknown) => {
      log.error(`connection failed: ${String(error)}`);
      await close("daemon_lost");
    },
  );
  return { closed, close: () => close("session_closed") };
}

function resolveOptions(run: RunAcpAgentOptions): AcpChildOptions {
  if (run.argv) {
    const parsed = parseAcpArgv(run.argv);
    if (parsed.kind === "error") throw new Error(parsed.message);
    if (parsed.kind !== "ok")
      throw new Error(`argv asks for ${parsed.kind}, which a running agent cannot answer`);
    return parsed.options;
  }
  return { ...DEFAULT_ACP_CHILD_OPTIONS, ...run.options };
}

function toWebReadable(input: RunAcpAgentOptions["input"]): ReadableStream<Uint8Array> {
  if (input instanceof ReadableStream) return input;
  return Readable.toWeb(input as Readable) as ReadableStream<Uint8Array>;
}

function toWebWritable(output: RunAcpAgentOptions["output"]): WritableStream<Uint8Array> {
  if (output instanceof WritableStream) return output;
  return Writable.toWeb(output as Writable) as WritableStream<Uint8Array>;
}
