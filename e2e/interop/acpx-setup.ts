// acpx 0.19.1 (a headless ACP client from the npm registry) for the interop tests: installed once into a
// cache folder (the registry or a warm cache is needed; without them the tests fail with the reason), run on
// the interop Node 22 (acpx needs >= 22.13), its `--format json` output read back as the JSON-RPC messages
// it exchanged with the agent.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FakeHandler, type FakeOpenAIServer, startFakeOpenAIServer } from "@qwen-daemon/core/testing";
import { OUR_CLI_ENTRY } from "./processes.js";
import { installReference, REPO_ROOT } from "./reference-setup.js";

export const ACPX_VERSION = "0.19.1";
const ACPX_CACHE = process.env.QWEN_ACPX_CACHE || join(REPO_ROOT, "node_modules", ".cache", "acpx");

/** npm-installs acpx into the cache once (idempotent: a cache with the pinned version is reused). */
export async function installAcpx(): Promise<string> {
  const cli = join(ACPX_CACHE, "node_modules", "acpx", "dist", "cli.js");
  const pkg = join(ACPX_CACHE, "node_modules", "acpx", "package.json");
  if (existsSync(pkg) && JSON.parse(readFileSync(pkg, "utf8")).version === ACPX_VERSION) return cli;
  rmSync(ACPX_CACHE, { recursive: true, force: true });
  await run("mkdir", ["-p", ACPX_CACHE], {});
  writeFileSync(join(ACPX_CACHE, "package.json"), '{ "name": "acpx-cache", "private": true }\n');
  const npm = await run(
    "npm",
    ["install", "--ignore-scripts", "--no-audit", "--no-fund", `acpx@${ACPX_VERSION}`],
    { cwd: ACPX_CACHE },
  );
  if (npm.code !== 0 || !existsSync(cli)) {
    throw new Error(
      `Could not install acpx@${ACPX_VERSION} into ${ACPX_CACHE} (npm exit ${npm.code}):\n${npm.stderr}`,
    );
  }
  return cli;
}

export function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ? { PATH: process.env.PATH ?? "", ...options.env } : process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 120_000);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** One JSON-RPC message acpx printed (`--format json`). */
export interface AcpxMessage {
  method?: string;
  params?: Record<string, unknown>;
  id?: unknown;
  result?: Record<string, unknown>;
}

/** `acpx --agent <agent> --ttl 1 --format json ...args` in `cwd`; the JSON-RPC it exchanged, in order. */
export async function runAcpx(options: {
  node: string;
  cli: string;
  agent: string;
  cwd: string;
  env: Record<string, string>;
  args: string[];
}) {
  const { node, cli, agent, cwd, env, args } = options;
  const result = await run(node, [cli, "--agent", agent, "--ttl", "1", "--format", "json", ...args], {
    cwd,
    env,
  });
  const messages = result.stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as AcpxMessage);
  return { ...result, messages, methods: messages.flatMap((m) => (m.method ? [m.method] : [])) };
}

/**
 * A fresh HOME (acpx's state, and our transcripts under HOME/.qwen) and workspace, added to `scratch` for
 * removal; `env` points the agent at the fake model.
 */
export function acpxDirs(
  modelUrl: string,
  scratch: string[],
): { home: string; workspace: string; env: Record<string, string> } {
  const home = realpathSync(mkdtempSync(join(tmpdir(), "acpx-home-")));
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), "acpx-ws-")));
  scratch.push(home, workspace);
  const env = {
    HOME: home,
    QWEN_HOME: join(home, ".qwen"),
    OPENAI_BASE_URL: modelUrl,
    OPENAI_API_KEY: "test",
    OPENAI_MODEL: "fake",
  };
  return { home, workspace, env };
}

/**
 * What an acpx test file shares: the interop Node 22 and acpx installed, the fake model with `handler`, and
 * fresh folders per test; `close()` stops the model and removes the folders.
 */
export class AcpxWorld {
  readonly #scratch: string[] = [];

  private constructor(
    readonly node22: string,
    readonly cli: string,
    readonly server: FakeOpenAIServer,
    /** The agent command acpx runs (`--agent`). */
    readonly agent: string,
  ) {}

  static async start(handler: FakeHandler, agentArgs: readonly string[] = []): Promise<AcpxWorld> {
    if (!existsSync(OUR_CLI_ENTRY))
      throw new Error(`${OUR_CLI_ENTRY} does not exist: build first (npm run build)`);
    const node22 = (await installReference()).node22;
    const cli = await installAcpx();
    const server = await startFakeOpenAIServer({ handler });
    const agent = [process.execPath, OUR_CLI_ENTRY, "--acp", ...agentArgs].join(" ");
    return new AcpxWorld(node22, cli, server, agent);
  }

  dirs(): ReturnType<typeof acpxDirs> {
    return acpxDirs(this.server.url, this.#scratch);
  }

  acpx(workspace: string, env: Record<string, string>, args: string[]): ReturnType<typeof runAcpx> {
    return runAcpx({ node: this.node22, cli: this.cli, agent: this.agent, cwd: workspace, env, args });
  }

  async close(): Promise<void> {
    await this.server.close();
    for (const dir of this.#scratch) rmSync(dir, { recursive: true, force: true });
  }
}
