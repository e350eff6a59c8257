// The real built `qwen --acp` driven by the ACP SDK's client side over its stdio (the child harness of the
// acp-child package, pointed at the built cli bin), with a fresh workspace and QWEN_HOME per test file.
import { existsSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type ChildHarness,
  type SpawnChildOptions,
  spawnChild,
} from "../../packages/acp-child/src/testing/child-harness.js";
import { CLI_ENTRY } from "./daemon-process.js";

export type { ChildHarness } from "../../packages/acp-child/src/testing/child-harness.js";

export class AcpAgentWorld {
  readonly workspace = realpathSync(mkdtempSync(join(tmpdir(), "qwen-acp-ws-")));
  readonly qwenHome = realpathSync(mkdtempSync(join(tmpdir(), "qwen-acp-home-")));
  readonly agents: ChildHarness[] = [];

  constructor(readonly modelUrl: string) {}

  /** `node packages/cli/dist/bin.js --acp [--restore-ask-user-question]`, initialized with `options`. */
  async spawn(
    options: Omit<SpawnChildOptions, "qwenHome" | "modelUrl" | "command" | "cwd"> & { restore: boolean },
  ): Promise<ChildHarness> {
    if (!existsSync(CLI_ENTRY)) throw new Error(`${CLI_ENTRY} does not exist: build first (npm run build)`);
    const agent = await spawnChild({
      ...options,
      command: [process.execPath, CLI_ENTRY],
      cwd: this.workspace,
      qwenHome: this.qwenHome,
      modelUrl: this.modelUrl,
    });
    this.agents.push(agent);
    return agent;
  }

  async dispose(): Promise<void> {
    await Promise.all(this.agents.splice(0).map((a) => (a.proc.exitCode === null ? a.kill() : undefined)));
    rmSync(this.workspace, { recursive: true, force: true });
    rmSync(this.qwenHome, { recursive: true, force: true });
  }
}
