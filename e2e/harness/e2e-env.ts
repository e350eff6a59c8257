// One test's world: a fresh workspace (the daemon's cwd), a fresh QWEN_HOME, the environment that points
// the daemon and its ACP children at the fake model, and every daemon the test started, so `afterEach`
// can SIGKILL whatever is left and remove the folders.
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DaemonProcess } from "./daemon-process.js";

export class E2eEnv {
  /** Real path: the daemon names the project folder after `process.cwd()`, which is resolved. */
  readonly workspace: string;
  readonly qwenHome: string;
  readonly env: Record<string, string>;
  readonly daemons: DaemonProcess[] = [];

  constructor(modelBaseUrl: string) {
    this.workspace = realpathSync(mkdtempSync(join(tmpdir(), "qwen-e2e-ws-")));
    this.qwenHome = realpathSync(mkdtempSync(join(tmpdir(), "qwen-e2e-home-")));
    this.env = {
      OPENAI_BASE_URL: modelBaseUrl,
      OPENAI_API_KEY: "test",
      OPENAI_MODEL: "fake",
      QWEN_HOME: this.qwenHome,
    };
  }

  /**
   * `qwen serve --port 0 --no-web [...args]` in the workspace; killed by `dispose()`. `command`: the program
   * that runs `serve` (DaemonProcessOptions.command), e.g. the built cli on another node.
   */
  async startDaemon(
    args: string[] = [],
    env: Record<string, string> = {},
    command?: string[],
  ): Promise<DaemonProcess> {
    const daemon = await DaemonProcess.start({
      cwd: this.workspace,
      args: ["--no-web", ...args],
      env: { ...this.env, ...env },
      ...(command === undefined ? {} : { command }),
    });
    this.daemons.push(daemon);
    return daemon;
  }

  /** What the daemons printed (stderr tails): the first thing to read when a cross-process test fails. */
  diagnostics(): string {
    return this.daemons
      .map((d, i) => `--- daemon #${i + 1} (pid ${d.pid}) stderr, last 4000 chars:\n${d.stderr.slice(-4000)}`)
      .join("\n");
  }

  /**
   * SIGKILLs every daemon still running (with its children) and removes the temp folders. After a failed
   * test it prints the daemons' stderr and keeps the folders (transcripts, ledgers, journals) for a look.
   */
  async dispose(testFailed = false): Promise<void> {
    for (const daemon of this.daemons) {
      if (daemon.child.exitCode === null && daemon.child.signalCode === null) await daemon.kill9();
    }
    if (testFailed) {
      console.error(
        `${this.diagnostics()}\n--- kept QWEN_HOME ${this.qwenHome} and workspace ${this.workspace}`,
      );
      return;
    }
    rmSync(this.workspace, { recursive: true, force: true });
    rmSync(this.qwenHome, { recursive: true, force: true });
  }
}
