// Runs `bash -c <command>` as the leader of its own process group, so a timeout or a cancel can kill
// everything the command started (pipelines, `&` jobs, grandchildren), not just bash: SIGTERM to the
// group first, then SIGKILL to the group after a grace period for whatever ignored it.
// node:child_process is imported when a command first runs: most sessions never run one, and it is one
// module less for every child to load at start.

export interface GroupRunOptions {
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal: AbortSignal;
  /** Time between SIGTERM and SIGKILL to the group. */
  killGraceMs: number;
  /**
   * After bash exits, how long to wait for its stdout/stderr to close. A background job (`cmd &`) can hold
   * the pipes open for its whole life; we stop reading rather than wait for it.
   */
  drainMs: number;
  onOutput(chunk: Buffer): void;
}

export interface GroupRunResult {
  /** Process group id (the leader's pid), when the spawn succeeded. */
  pgid: number | undefined;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** Why we terminated the group, if we did. */
  terminatedBy: "timeout" | "abort" | undefined;
  /** Spawn failure, or a failure to signal the group other than "already gone". */
  error: Error | undefined;
}

/** Signals the whole group; ESRCH means it is already gone, which is what we wanted. */
function signalGroup(pgid: number, signal: NodeJS.Signals): Error | undefined {
  try {
    process.kill(-pgid, signal);
    return undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return undefined;
    return error instanceof Error ? error : new Error(String(error));
  }
}

export async function runInProcessGroup(options: GroupRunOptions): Promise<GroupRunResult> {
  const { spawn } = await import("node:child_process");
  return new Promise((resolve) => {
    const child = spawn("bash", ["-c", options.command], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const pgid = child.pid;
    let terminatedBy: GroupRunResult["terminatedBy"];
    let error: Error | undefined;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let finished = false;
    let drainTimer: NodeJS.Timeout | undefined;

    const terminate = (why: "timeout" | "abort") => {
      // Once bash has exited the command is done; a timeout firing while we drain must not kill its `&` jobs.
      if (finished || exit !== undefined || terminatedBy !== undefined || pgid === undefined) return;
      terminatedBy = why;
      error ??= signalGroup(pgid, "SIGTERM");
      // Not cleared by finish(): the leader may die on SIGTERM while a group member that ignores it lives on.
      setTimeout(() => {
        const killError = signalGroup(pgid, "SIGKILL");
        if (killError && !finished) error ??= killError;
      }, options.killGraceMs);
    };

    const timeoutTimer = setTimeout(() => terminate("timeout"), options.timeoutMs);
    const onAbort = () => terminate("abort");
    options.signal.addEventListener("abort", onAbort, { once: true });

    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timeoutTimer);
      clearTimeout(drainTimer);
      options.signal.removeEventListener("abort", onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve({ pgid, exitCode: exit?.code ?? null, signal: exit?.signal ?? null, terminatedBy, error });
    };

    child.stdout?.on("data", (chunk: Buffer) => options.onOutput(chunk));
    child.stderr?.on("data", (chunk: Buffer) => options.onOutput(chunk));
    child.on("error", (spawnError) => {
      error ??= spawnError;
      finish();
    });
    child.on("exit", (code, signal) => {
      exit = { code, signal };
      drainTimer = setTimeout(finish, options.drainMs);
    });
    child.on("close", (code, signal) => {
      exit ??= { code, signal };
      finish();
    });
    if (options.signal.aborted) onAbort();
  });
}
