// A child process whose stdout and stderr are collected as text while it runs, for tests that wait on what
// it prints and show it when they fail.
import { type ChildProcessByStdio, type SpawnOptions, spawn } from "node:child_process";
import type { Readable } from "node:stream";

export interface CapturedProcess {
  child: ChildProcessByStdio<null, Readable, Readable>;
  readonly stdout: string;
  readonly stderr: string;
  /** Its exit code (null when a signal ended it), once it has exited and its output is read. */
  closed: Promise<number | null>;
}

export function spawnCaptured(
  command: string,
  args: readonly string[],
  options: SpawnOptions,
): CapturedProcess {
  const child = spawn(command, args, {
    ...options,
    stdio: ["ignore", "pipe", "pipe"],
  }) as ChildProcessByStdio<null, Readable, Readable>;
  const out = { stdout: "", stderr: "" };
  child.stdout.on("data", (d) => {
    out.stdout += d;
  });
  child.stderr.on("data", (d) => {
    out.stderr += d;
  });
  return {
    child,
    get stdout() {
      return out.stdout;
    },
    get stderr() {
      return out.stderr;
    },
    closed: new Promise((resolve) => child.once("close", (code) => resolve(code))),
  };
}
