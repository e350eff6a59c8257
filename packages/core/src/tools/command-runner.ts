// Where run_shell_command runs a command: a process group on this machine by default, or a host's terminal
// (an ACP client's). The tool owns the policy (workspace confinement, timeout, output cap, result texts); a
// runner only runs, and must stop the command when the timeout fires or the signal aborts.
import { runInProcessGroup } from "./process-group.js";

export interface CommandRunRequest {
  command: string;
  /** The working directory, already confined to the workspace and known to exist. */
  cwd: string;
  /** Variables the command gets on top of the runner's environment. */
  env: Record<string, string>;
  timeoutMs: number;
  signal: AbortSignal;
  /** The tool's output cap; a runner that keeps output elsewhere need keep no more than this. */
  outputLimitBytes: number;
  onOutput(chunk: Buffer): void;
  /** The tool call this run belongs to, so a host can show the run beside it. */
  callId?: string;
}

export interface CommandRunResult {
  /** False when the command could not be started at all (`error` says why). */
  started: boolean;
  exitCode: number | null;
  signal: string | null;
  /** Why the runner stopped the command, if it did. */
  terminatedBy: "timeout" | "abort" | undefined;
  error: Error | undefined;
  /** The result line naming where it ran, e.g. `Process Group PGID: 4242`. */
  ranIn: string;
}

export interface CommandRunner {
  run(request: CommandRunRequest): Promise<CommandRunResult>;
}

export interface LocalCommandRunnerOptions {
  /** Environment for commands; defaults to this process's (read at each run). */
  env?: NodeJS.ProcessEnv;
  /** Grace between SIGTERM and SIGKILL to the process group. */
  killGraceMs?: number;
  /** How long to keep reading after bash exits while a background job still holds the pipes. */
  drainMs?: number;
}

/** `bash -c` in its own process group on this machine (process-group.ts). */
export function localCommandRunner(options: LocalCommandRunnerOptions = {}): CommandRunner {
  return {
    async run(request) {
      const run = await runInProcessGroup({
        command: request.command,
        cwd: request.cwd,
        env: { ...(options.env ?? process.env), ...request.env },
        timeoutMs: request.timeoutMs,
        signal: request.signal,
        killGraceMs: options.killGraceMs ?? 2000,
        drainMs: options.drainMs ?? 250,
        onOutput: request.onOutput,
      });
      return {
        started: run.pgid !== undefined,
        exitCode: run.exitCode,
        signal: run.signal,
        terminatedBy: run.terminatedBy,
        error: run.error,
        ranIn: `Process Group PGID: ${run.pgid ?? "(none)"}`,
      };
    },
  };
}
