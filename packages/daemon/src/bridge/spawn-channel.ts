// The production channel: a child process with stdio pipes, leader of its own process group so that
// shutdown can signal the whole tree (tools it started included) with one kill(-pid).
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { type RestoreSwitches, restoreFlagArgs } from "@qwen-daemon/core/restore-kinds";
import type { ChannelFactory, ChildChannel, ChildExit } from "./channel.js";
import { preInitialize } from "./pre-initialized-channel.js";

export type SpawnChannelOptions = {
  /** Program and argument prefix, e.g. [node, cli-entry]. */
  command: readonly string[];
  /** Appended after `--acp` (forwarded daemon flags). */
  extraArgs?: readonly string[] | undefined;
  env?: Record<string, string> | undefined;
};

/**
 * The flags a daemon forwards to its children when the caller gave none (docs/restore.md "The switches"):
 * `--experimental-lsp`, then the restore flags of the switches that are on, in the restore-kind table's
 * order. The cli's `acpChildExtraArgs` gives the same list and is normally passed as `childExtraArgs`.
 */
export function forwardedChildFlags(
  flags: { experimentalLsp: boolean } & Partial<RestoreSwitches>,
): string[] {
  return [...(flags.experimentalLsp ? ["--experimental-lsp"] : []), ...restoreFlagArgs(flags)];
}

/** argv of the child: `<command...> --acp <extraArgs...>`. */
export function childArgv(command: readonly string[], extraArgs: readonly string[] = []): string[] {
  return [...command, "--acp", ...extraArgs];
}

export function spawnChannelFactory(options: SpawnChannelOptions): ChannelFactory {
  return ({ workspace }) =>
    spawnChannel(childArgv(options.command, options.extraArgs), workspace, options.env);
}

/**
 * The environment a child gets by default: the daemon's own, minus the daemon's bearer token and the
 * reference implementation's private capability variables (a child must not inherit the daemon's secrets).
 */
export function childEnvironment(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || name === "QWEN_SERVER_TOKEN" || name.startsWith("QWEN_CODE_PRIVATE_"))
      continue;
    out[name] = value;
  }
  return out;
}

/**
 * Starts one child now, outside any factory: `qwen serve` calls this (through the boot entry) as soon as its
 * socket binds, and hands the channel to `startDaemon` as `internals.prespawnedChild`. The child's ACP
 * `initialize` is written at once and its answer held for the daemon's connection (pre-initialized-channel.ts),
 * so that the child handles it while the daemon's modules load.
 */
export function spawnChildChannel(options: SpawnChannelOptions & { workspace: string }): ChildChannel {
  return preInitialize(
    spawnChannel(childArgv(options.command, options.extraArgs), options.workspace, options.env),
  );
}

function spawnChannel(
  argv: readonly string[],
  cwd: string,
  env: Record<string, string> | undefined,
): ChildChannel {
  const [program, ...args] = argv as [string, ...string[]];
  const child = spawn(program, args, {
    cwd,
    env: env ?? childEnvironment(),
    stdio: ["pipe", "pipe", "pipe"],
    detached: true,
  });
  const exited = new Promise<ChildExit>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
    // `error` without `exit` happens when the program cannot be started at all.
    child.once("error", (error) => resolve({ code: null, signal: null, error: error.message }));
  });
  // A child that dies mid-write makes stdin emit EPIPE; the exit above is how that is reported.
  child.stdin.on("error", () => undefined);
  return {
    pid: child.pid,
    input: Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    output: Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
    stderr: Readable.toWeb(child.stderr) as ReadableStream<Uint8Array>,
    exited,
    kill(signal) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
        else child.kill(signal);
      } catch {
        // The group is already gone (ESRCH) or was never formed: signal the process itself.
        child.kill(signal);
      }
    },
  };
}
