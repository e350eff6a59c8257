import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CommandRunner, CommandRunRequest, CommandRunResult } from "./command-runner.js";
import { createShellTool, SHELL_MAX_TIMEOUT_MS } from "./shell.js";

let top: string;
let root: string;
const ctx = (signal = new AbortController().signal) => ({ cwd: root, signal });
const shell = createShellTool({ killGraceMs: 200, drainMs: 100 });

/** Alive means signalable and not a zombie (PID 1 in a container may never reap orphans). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw error;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false; // /proc entry vanished between the two checks: it is gone
  }
}

/** Polls (bounded) until `check` holds; the group was signalled already, death follows within moments. */
async function eventually(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`never: ${what}`);
}

const pidsToClean: number[] = [];

beforeEach(async () => {
  top = await realpath(await mkdtemp(path.join(tmpdir(), "shell-")));
  root = path.join(top, "ws");
  await mkdir(path.join(root, "sub"), { recursive: true });
});
afterEach(async () => {
  for (const pid of pidsToClean.splice(0)) if (isAlive(pid)) process.kill(pid, "SIGKILL");
  await rm(top, { recursive: true, force: true });
});

describe("run_shell_command", () => {
  it("reports combined output, exit code and the process group", async () => {
    const result = await shell.execute({ command: "echo out; echo err >&2; exit 3" }, ctx());
    const lines = result.output?.split("\n") ?? [];
    expect(lines.slice(0, 6)).toEqual([
      "Command: echo out; echo err >&2; exit 3",
      "Directory: (root)",
      expect.stringMatching(/^Output: (out|err)$/),
      expect.stringMatching(/^(out|err)$/),
      "Error: (none)",
      "Exit Code: 3",
    ]);
    expect(lines.slice(6, 7)).toEqual(["Signal: (none)"]);
    expect(lines[7]).toMatch(/^Process Group PGID: \d+$/);
  });

  it("runs in the workspace root or a directory inside it, never outside", async () => {
    expect((await shell.execute({ command: "pwd" }, ctx())).output).toContain(`Output: ${root}\n`);
    expect((await shell.execute({ command: "pwd", directory: "sub" }, ctx())).output).toContain(
      `Output: ${path.join(root, "sub")}\n`,
    );
    expect(await shell.execute({ command: "pwd", directory: ".." }, ctx())).toEqual({
      error: `Path ".." is outside the workspace "${root}".`,
    });
  });

  it("kills the whole group when a command outlives its timeout, grandchild included", async () => {
    const result = await shell.execute({ command: "sleep 30 & echo $!; wait", timeout: 500 }, ctx());
    expect(result.error).toMatch(
      /^Command timed out after 500ms before it could complete\. Below is the output before it timed out:\n\d+$/,
    );
    const grandchild = Number(result.error?.split("\n")[1]);
    pidsToClean.push(grandchild);
    await eventually(() => !isAlive(grandchild), `grandchild ${grandchild} dead`);
  });

  it("escalates to SIGKILL when the group ignores SIGTERM", async () => {
    const result = await shell.execute(
      { command: "trap '' TERM; sleep 30 & echo $!; wait", timeout: 300 },
      ctx(),
    );
    expect(result.error).toMatch(/^Command timed out after 300ms/);
    const grandchild = Number(result.error?.split("\n")[1]);
    pidsToClean.push(grandchild);
    await eventually(() => !isAlive(grandchild), `TERM-ignoring grandchild ${grandchild} dead`);
  });

  it("kills the group on abort", async () => {
    const controller = new AbortController();
    const pidFile = path.join(root, "pid");
    const running = shell.execute(
      { command: `sleep 30 & echo $! > ${pidFile}; wait` },
      ctx(controller.signal),
    );
    await eventually(async () => (await readFile(pidFile, "utf8").catch(() => "")).trim() !== "", "pid file");
    const grandchild = Number((await readFile(pidFile, "utf8")).trim());
    pidsToClean.push(grandchild);
    controller.abort();
    expect(await running).toEqual({
      error:
        "Command was cancelled by user before it could complete. There was no output before it was cancelled.",
    });
    await eventually(() => !isAlive(grandchild), `grandchild ${grandchild} dead after abort`);
  });

  it("does not start when already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await shell.execute({ command: "echo hi" }, ctx(controller.signal))).toEqual({
      error: "Command was cancelled by user before it could start.",
    });
  });

  it("caps output, keeping its beginning and end", async () => {
    const small = createShellTool({ outputCapBytes: 1000, drainMs: 100 });
    const result = await small.execute(
      { command: "printf 'S'; head -c 200000 /dev/zero | tr '\\0' a; printf 'E'" },
      ctx(),
    );
    const output = result.output ?? "";
    expect(output).toContain(
      `Output: S${"a".repeat(499)}\n[... 199002 bytes of output omitted ...]\n${"a".repeat(499)}E\n`,
    );
  });

  it("returns once bash exits even if a background job holds the pipes", async () => {
    const result = await shell.execute({ command: "sleep 30 & echo $!" }, ctx());
    const pid = Number(/^Output: (\d+)$/m.exec(result.output ?? "")?.[1]);
    pidsToClean.push(pid);
    expect(result.output).toContain("Exit Code: 0");
  });

  it("validates the timeout range and declares exec confirmation", () => {
    expect(shell.validate({ command: "ls", timeout: SHELL_MAX_TIMEOUT_MS + 1 })).toMatch(
      /^Invalid arguments: timeout: /,
    );
    expect(shell.validate({ command: "" })).toMatch(/^Invalid arguments: command: /);
    expect(
      shell.validate({ command: "ls", timeout: 1000, directory: "sub", description: "list" }),
    ).toBeUndefined();
    expect(shell.confirmation).toBe("exec");
  });
});

describe("run_shell_command over an injected runner (a host's terminal)", () => {
  const runnerAnswering = (result: Partial<CommandRunResult>, output = "") => {
    const seen: CommandRunRequest[] = [];
    const runner: CommandRunner = {
      async run(request) {
        seen.push(request);
        request.onOutput(Buffer.from(output));
        return {
          started: true,
          exitCode: 0,
          signal: null,
          terminatedBy: undefined,
          error: undefined,
          ranIn: "Terminal: term-1",
          ...result,
        };
      },
    };
    return { runner, seen };
  };

  it("hands the runner the confined directory, the pager env, the timeout, the cap and the call id", async () => {
    const { runner, seen } = runnerAnswering({ exitCode: 0 }, "hi\n");
    const tool = createShellTool({ runner, outputCapBytes: 1000 });
    const result = await tool.execute(
      { command: "echo hi", directory: "sub", timeout: 1234 },
      {
        ...ctx(),
        callId: "call_9",
      },
    );
    expect(seen).toEqual([
      expect.objectContaining({
        command: "echo hi",
        cwd: path.join(root, "sub"),
        env: { PAGER: "cat", GIT_PAGER: "cat" },
        timeoutMs: 1234,
        outputLimitBytes: 1000,
        callId: "call_9",
      }),
    ]);
    expect(result.output).toBe(
      [
        "Command: echo hi",
        "Directory: sub",
        "Output: hi",
        "Error: (none)",
        "Exit Code: 0",
        "Signal: (none)",
        "Terminal: term-1",
      ].join("\n"),
    );
  });

  it("keeps the local texts for a timeout and a start failure, and the local output cap", async () => {
    const timedOut = runnerAnswering(
      { terminatedBy: "timeout", exitCode: null, signal: "SIGKILL" },
      "partial",
    );
    expect(
      await createShellTool({ runner: timedOut.runner }).execute({ command: "sleep 9", timeout: 50 }, ctx()),
    ).toEqual({
      error:
        "Command timed out after 50ms before it could complete. Below is the output before it timed out:\npartial",
    });
    const failed = runnerAnswering({ started: false, error: new Error("no terminal") });
    expect(await createShellTool({ runner: failed.runner }).execute({ command: "x" }, ctx())).toEqual({
      error: "Failed to start the command: no terminal",
    });
    const flood = runnerAnswering({}, "y".repeat(5000));
    const capped = await createShellTool({ runner: flood.runner, outputCapBytes: 100 }).execute(
      { command: "yes" },
      ctx(),
    );
    expect(capped.output).toContain("[... 4900 bytes of output omitted ...]");
  });

  it("refuses a directory outside the workspace before the runner sees it", async () => {
    const { runner, seen } = runnerAnswering({});
    expect(await createShellTool({ runner }).execute({ command: "ls", directory: ".." }, ctx())).toEqual({
      error: `Path ".." is outside the workspace "${root}".`,
    });
    expect(seen).toEqual([]);
  });
});
