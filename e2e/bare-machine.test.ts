// A new user's machine: a clone of this repository, run with a PATH that holds node, npm and npx and the
// system's own directories, nothing else (no pnpm, no turbo, nothing installed globally), and an environment
// with only HOME and PATH. `npm start` must install, build and serve the web client and /health; the
// README's other commands must work there too.
//
// It clones the committed HEAD (what a user gets), so uncommitted changes are not in it. It shares HOME with
// this run, so npx's cache and pnpm's package store are reused (no downloads when they are warm); the build
// itself is real and starts from nothing (a clone has its own turbo cache).
import { type ChildProcess, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnCaptured } from "./harness/captured-process.js";
import { isAlive, killTree } from "./harness/process-tree.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SYSTEM_DIRS = ["/usr/bin", "/bin"];
/** What a bare machine lacks; none of it may be reachable, or the test proves nothing. */
const ABSENT = ["pnpm", "pnpx", "turbo", "tsc", "tsup", "vitest", "biome"];

const work = mkdtempSync(join(tmpdir(), "qwen-bare-"));
const clone = join(work, "p");
const bin = join(work, "bin");
let env: Record<string, string>;

/** The first `name` on the PATH of this test run. */
function onPath(name: string): string {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  throw new Error(`${name} is not on this test run's PATH`);
}

function run(command: string, args: string[], cwd = clone): string {
  return execFileSync(command, args, {
    cwd,
    env: { ...env, NO_COLOR: "1" }, // plain text to match on
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
}

beforeAll(() => {
  execFileSync("git", ["clone", "--quiet", ROOT, clone]);
  // node, npm and npx alone in a folder of their own: wherever node is installed, nothing beside it leaks in.
  mkdirSync(bin);
  symlinkSync(process.execPath, join(bin, "node"));
  symlinkSync(onPath("npm"), join(bin, "npm"));
  symlinkSync(onPath("npx"), join(bin, "npx"));
  env = { HOME: process.env.HOME ?? work, PATH: [bin, ...SYSTEM_DIRS].join(delimiter) };
});

let daemon: ChildProcess | undefined;
afterAll(() => {
  if (daemon?.pid !== undefined && isAlive(daemon.pid)) killTree(daemon.pid);
  rmSync(work, { recursive: true, force: true });
});

describe("a fresh clone on a machine with only Node and npm", () => {
  it("has nothing on its PATH but node, npm and the system's tools", () => {
    const found = ABSENT.filter((name) => SYSTEM_DIRS.some((dir) => existsSync(join(dir, name))));
    expect(found, `this machine has ${found.join(", ")} in ${SYSTEM_DIRS.join(" or ")}`).toEqual([]);
    expect(run("node", ["--version"]).trim()).toBe(process.version);
  });

  it("npm start installs, builds and serves /health and the web client", async () => {
    const run = spawnCaptured("npm", ["start", "--", "--port", "0"], { cwd: clone, env, detached: true });
    daemon = run.child;
    const output = () => run.stdout + run.stderr;
    const deadline = Date.now() + 540_000;
    const listening = () => /listening on (http:\/\/\S+)/.exec(output())?.[1];
    while (!listening()) {
      if (daemon.exitCode !== null) throw new Error(`npm start exited ${daemon.exitCode}:\n${output()}`);
      if (Date.now() > deadline) throw new Error(`npm start did not serve in time:\n${output()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const url = listening() as string;
    expect(output()).toContain("[bootstrap] installing dependencies with pnpm 12.4.2");
    expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: "ok" });
    const page = await fetch(`${url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<html");

    // npm hands a SIGTERM to the daemon (the script execs it), which shuts down cleanly.
    process.kill(daemon.pid as number, "SIGTERM");
    expect(await run.closed).toBe(0);
    expect(output()).toContain("SIGTERM received");
  }, 600_000);

  it("the README's other commands work there: npm run qwen, lint, one package's tests with npx", () => {
    expect(run("npm", ["run", "--silent", "qwen", "--", "--version"]).trim()).toMatch(/^\d+\.\d+\.\d+$/);
    expect(run("npm", ["run", "--silent", "qwen", "--", "serve", "--help"])).toContain("--max-sessions");
    run("npm", ["run", "lint"]);
    const history = run("npx", ["vitest", "run", "src/history"], join(clone, "packages", "core"));
    expect(history).toMatch(/Test Files\s+\d+ passed/);
  }, 180_000);
});
