// Real processes for the interop tests: a `qwen serve` (ours on Node 20, or the reference on Node 22) and
// the SDK client flow (sdk-client-flow.mjs on Node 22). Environments are built from scratch so nothing
// from the test runner (tokens, NODE_OPTIONS, a developer's OPENAI_* keys) leaks into the daemons.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { killTree } from "../harness/process-tree.js";

export const OUR_CLI_ENTRY = fileURLToPath(new URL("../../packages/cli/dist/bin.js", import.meta.url));
export const SDK_CLIENT_FLOW = fileURLToPath(new URL("./sdk-client-flow.mjs", import.meta.url));
export const ACP_TEE = fileURLToPath(new URL("./acp-tee.mjs", import.meta.url));

/** Both daemons print this line once they accept connections. */
const LISTENING = /qwen serve listening on (http:\/\/[^\s]+)/;

export interface ServeProcess {
  readonly url: string;
  readonly pid: number;
  /** Everything the daemon (and the child stderr it forwards) printed so far. */
  output(): string;
  /** SIGKILLs the daemon and every process under it (its ACP children have their own process groups). */
  stop(): Promise<void>;
}

export interface StartServeOptions {
  /** What is running, for error messages. */
  name: string;
  command: string;
  args: string[];
  cwd: string;
  /** The whole environment apart from PATH. */
  env: Record<string, string>;
  startTimeoutMs?: number;
}

export async function startServe(opts: StartServeOptions): Promise<ServeProcess> {
  const child = spawn(opts.command, opts.args, {
    cwd: opts.cwd,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...opts.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const collect = (d: Buffer) => {
    output += d.toString("utf8");
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) killTree(child.pid);
    await exited;
  };

  const deadline = Date.now() + (opts.startTimeoutMs ?? 30_000);
  for (;;) {
    const url = LISTENING.exec(output)?.[1];
    if (url !== undefined) return { url, pid: child.pid as number, output: () => output, stop };
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `${opts.name} exited (${child.exitCode ?? child.signalCode}) before listening:\n${output}`,
      );
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${opts.name} did not print "qwen serve listening on" in time:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

export interface FlowStep {
  step: string;
  [key: string]: unknown;
}

export interface FlowRun {
  exitCode: number | null;
  steps: FlowStep[];
  stderr: string;
  /** The steps without the per-event lines, for failure messages. */
  summary(): string;
}

/** Runs sdk-client-flow.mjs with Node 22 and parses its JSON lines. */
export async function runSdkClientFlow(opts: {
  node22: string;
  sdk: string;
  url: string;
  args?: string[];
  timeoutMs?: number;
}): Promise<FlowRun> {
  const timeoutMs = opts.timeoutMs ?? 45_000;
  const child: ChildProcess = spawn(
    opts.node22,
    [SDK_CLIENT_FLOW, opts.url, "--sdk", opts.sdk, "--timeout-ms", String(timeoutMs), ...(opts.args ?? [])],
    { env: { PATH: process.env.PATH ?? "/usr/bin:/bin" }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (d: Buffer) => {
    stdout += d.toString("utf8");
  });
  child.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString("utf8");
  });
  // The script has its own timer; this one only guards against a wedged Node 22.
  const guard = setTimeout(() => child.kill("SIGKILL"), timeoutMs + 10_000);
  const exitCode = await new Promise<number | null>((resolve) =>
    child.once("close", (code) => resolve(code)),
  );
  clearTimeout(guard);
  const steps = stdout
    .split("\n")
    .filter((line) => line.trim().length > 0)
    .map((line): FlowStep => {
      try {
        return JSON.parse(line) as FlowStep;
      } catch {
        return { step: "unparsed", line };
      }
    });
  return {
    exitCode,
    steps,
    stderr,
    summary: () =>
      steps
        .filter((s) => s.step !== "event")
        .map((s) => JSON.stringify(s).slice(0, 600))
        .join("\n"),
  };
}
