// Each package as a user installs it from npm: `pnpm pack` of the built package, installed into an empty
// project next to only the packages it depends on. The tarball is checked (license, exports, links) and
// then used: `import`, `require` and TypeScript (`nodenext`) find its exports, its bin runs, and the example
// in its README runs as written. Catches a dependency the code needs but package.json does not declare, an
// export pointing at a file the tarball does not ship, and a README that promises what the package lacks.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { brokenLinks, exampleSteps, runExample } from "./readme-example.js";
import { exportConditions, exportTargets, PACKAGES, type PackageName, ROOT, TarballSet } from "./tarballs.js";

const set = new TarballSet();
let codeCachesAtPack: string[] = [];
beforeAll(() => {
  codeCachesAtPack = runBuiltAgentOnce();
  set.packAll();
}, 120_000);
afterAll(() => set.dispose());

/**
 * The environment of a user's shell: no model configured, a scratch QWEN_HOME, and no NODE_PATH (the
 * workspace's tool shims set one that reaches every workspace package, which would hide a missing one).
 */
function userEnv(project: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || key === "NODE_PATH" || key.startsWith("OPENAI_") || key.startsWith("QWEN_"))
      continue;
    env[key] = value;
  }
  return { ...env, QWEN_HOME: join(project, ".qwen-home") };
}

// Installing, loading and type-checking a tarball is many cold Node and tsc starts: on a loaded 2-core machine
// one such test took close to a minute, so these get more room than the suite's default (not a speed check).
const INSTALLED = { timeout: 180_000 };

function node(project: string, args: string[]): string {
  return execFileSync(process.execPath, args, {
    cwd: project,
    env: userEnv(project),
    encoding: "utf8",
    stdio: "pipe",
    timeout: INSTALLED.timeout,
  });
}

/**
 * Runs the built `qwen --acp` once (stdin at its end, so it exits at once), which writes V8 code caches next
 * to its hot bundle in packages/cli/dist/hot/, as any run does: the tarball packed after it must not ship them.
 */
function runBuiltAgentOnce(): string[] {
  const home = mkdtempSync(join(tmpdir(), "qwen-pack-home-"));
  try {
    execFileSync(process.execPath, [join(ROOT, "packages", "cli", "dist", "bin.js"), "--acp"], {
      input: "",
      env: { ...process.env, QWEN_HOME: home },
      stdio: "pipe",
    });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  return readdirSync(join(ROOT, "packages", "cli", "dist", "hot")).filter((f) => f.endsWith(".v8cache"));
}

/** An empty project with these tarballs installed, made before the tests of the enclosing describe. */
function installed(label: string, names: PackageName[]): string {
  const dir = set.projectDir(label);
  beforeAll(() => set.install(dir, names), 120_000);
  return dir;
}

/** The names a module exports, loaded with `import` and with `require`. */
function exportedNames(project: string, specifier: string): { imported: string[]; required: string[] } {
  const list = "(m) => JSON.stringify(Object.keys(m).filter((k) => k !== 'module.exports').sort())";
  const imported = node(project, [
    "--input-type=module",
    "-e",
    `import(${JSON.stringify(specifier)}).then((m) => console.log((${list})(m)))`,
  ]);
  const required = node(project, ["-e", `console.log((${list})(require(${JSON.stringify(specifier)})))`]);
  return { imported: JSON.parse(imported), required: JSON.parse(required) };
}

/** TypeScript with module/moduleResolution nodenext, from the repository's own compiler and Node types. */
function typecheck(project: string, files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) writeFileSync(join(project, name), content);
  const tsconfig = {
    compilerOptions: {
      module: "nodenext",
      moduleResolution: "nodenext",
      target: "es2022",
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      types: ["node"],
      typeRoots: [join(ROOT, "node_modules", "@types")],
    },
    files: Object.keys(files),
  };
  writeFileSync(join(project, "tsconfig.json"), JSON.stringify(tsconfig));
  const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
  try {
    execFileSync(process.execPath, [tsc, "-p", project], { cwd: project, encoding: "utf8", stdio: "pipe" });
  } catch (error) {
    throw new Error(`tsc failed:\n${(error as { stdout?: string }).stdout ?? error}`);
  }
}

describe.each(PACKAGES.map((name) => [name] as [PackageName]))("the @qwen-daemon/%s tarball", (name) => {
  it("is MIT with its LICENSE, depends on versions (no workspace:), and exports only files it ships", () => {
    const { manifest, dir } = set.get(name);
    expect(manifest.license).toBe("MIT");
    expect(readFileSync(join(dir, "LICENSE"), "utf8")).toBe(readFileSync(join(ROOT, "LICENSE"), "utf8"));
    for (const field of ["dependencies", "peerDependencies", "optionalDependencies"]) {
      for (const [dep, range] of Object.entries((manifest[field] ?? {}) as Record<string, string>)) {
        expect(range, `${field}.${dep}`).not.toMatch(/^workspace:/);
      }
    }
    expect(exportConditions(manifest.exports)).not.toContain("source");
    const targets = [
      ...exportTargets(manifest.exports),
      ...exportTargets(manifest.bin, "bin"),
      ...exportTargets(manifest.main, "main"),
      ...exportTargets(manifest.types, "types"),
    ];
    expect(targets.length).toBeGreaterThan(2);
    const missing = targets.filter((t) => !existsSync(join(dir, t.target)));
    expect(missing, "export targets the tarball does not ship").toEqual([]);
  });

  it("has a README whose links all stay inside the package", () => {
    const { dir } = set.get(name);
    const readme = join(dir, "README.md");
    expect(readFileSync(readme, "utf8")).not.toMatch(/shared\//);
    expect(brokenLinks(readme, dir)).toEqual([]);
    const docs = readdirSync(join(dir, "docs")).filter((f) => f.endsWith(".md"));
    expect(docs).toEqual(expect.arrayContaining(["architecture.md", "protocol.md", "restore.md"]));
    for (const doc of docs) expect(brokenLinks(join(dir, "docs", doc), dir), doc).toEqual([]);
  });
});

describe("@qwen-daemon/core from its tarball", INSTALLED, () => {
  const project = installed("core", ["core"]);

  it("loads with import and require (Node 20's require of ES modules), and types under nodenext", () => {
    for (const specifier of ["@qwen-daemon/core", "@qwen-daemon/core/testing"]) {
      const { imported, required } = exportedNames(project, specifier);
      expect(imported.length).toBeGreaterThan(0);
      expect(required).toEqual(imported);
    }
    expect(exportedNames(project, "@qwen-daemon/core").imported).toContain("AgentSession");
    typecheck(project, {
      "use.mts": `import { Config, findRestorableAskUserQuestion } from "@qwen-daemon/core";
import { startFakeOpenAIServer } from "@qwen-daemon/core/testing";
const config: Config = new Config({ restoreAskUserQuestion: true });
// @ts-expect-error the types are real: a Config is not a string
const wrong: string = config;
export { findRestorableAskUserQuestion, startFakeOpenAIServer, wrong };
`,
      "use.cts": `import core = require("@qwen-daemon/core");
const found: ReturnType<typeof core.findRestorableAskUserQuestion> = undefined;
export = found;
`,
    });
  });

  it("runs its README example", async () => {
    const readme = readFileSync(join(set.get("core").dir, "README.md"), "utf8");
    const { output } = await runExample(exampleSteps(readme), project, userEnv(project), async () => {
      throw new Error("the core example starts no server");
    });
    expect(output).toContain("[demo model]");
    expect(output).toContain("stop reason: end_turn");
    expect(output).toContain("- [ ] Read the request");
  });
});

describe("@qwen-daemon/acp-child from its tarball", INSTALLED, () => {
  const project = installed("acp-child", ["core", "acp-child"]);

  it("loads with import and require, types under nodenext, and qwen-acp --help prints its usage", () => {
    const { imported, required } = exportedNames(project, "@qwen-daemon/acp-child");
    expect(imported).toContain("runAcpAgent");
    expect(required).toEqual(imported);
    typecheck(project, {
      "use.mts": `import { parseAcpArgv, runAcpAgent } from "@qwen-daemon/acp-child";
const parsed = parseAcpArgv(["--acp"]);
// @ts-expect-error the types are real: the result is not a number
const wrong: number = parsed;
export { runAcpAgent, wrong };
`,
      "use.cts": `import child = require("@qwen-daemon/acp-child");
export = child.parseAcpArgv(["--help"]).kind;
`,
    });
    const bin = join(project, "node_modules", ".bin", "qwen-acp");
    expect(execFileSync(bin, ["--help"], { encoding: "utf8", env: userEnv(project) })).toContain(
      "Usage: qwen-acp --acp",
    );
    expect(execFileSync(bin, ["--version"], { encoding: "utf8", env: userEnv(project) }).trim()).toBe(
      set.get("acp-child").manifest.version,
    );
  });

  it("runs its README example", async () => {
    const readme = readFileSync(join(set.get("acp-child").dir, "README.md"), "utf8");
    const { output } = await runExample(exampleSteps(readme), project, userEnv(project), async () => {
      throw new Error("the acp-child example starts no server");
    });
    const answer = JSON.parse(output.trim().split("\n").at(-1) as string);
    expect(answer).toMatchObject({
      jsonrpc: "2.0",
      id: 1,
      result: {
        protocolVersion: 1,
        agentInfo: { name: "qwen-daemon" },
        agentCapabilities: { loadSession: true },
      },
    });
  });
});

describe("@qwen-daemon/daemon from its tarball", INSTALLED, () => {
  const project = installed("daemon", ["core", "acp-child", "daemon"]);

  it("loads with import and require, and types under nodenext", () => {
    for (const specifier of [
      "@qwen-daemon/daemon",
      "@qwen-daemon/daemon/boot",
      "@qwen-daemon/daemon/option-specs",
    ]) {
      const { imported, required } = exportedNames(project, specifier);
      expect(imported.length, specifier).toBeGreaterThan(0);
      expect(required, specifier).toEqual(imported);
    }
    typecheck(project, {
      "use.mts": `import { type DaemonOptionsInput, startDaemon, webClientRoot } from "@qwen-daemon/daemon";
import { DAEMON_OPTION_SPECS } from "@qwen-daemon/daemon/option-specs";
const options: DaemonOptionsInput = { port: DAEMON_OPTION_SPECS.port.default, webRoot: webClientRoot() };
// @ts-expect-error the types are real: port is a number
const wrong: DaemonOptionsInput = { port: "4170" };
export { options, startDaemon, wrong };
`,
      "use.cts": `import daemon = require("@qwen-daemon/daemon");
export = daemon.DEFAULT_PORT;
`,
    });
  });

  it("runs its README example: the default agent from @qwen-daemon/acp-child, the web client at /", async () => {
    const readme = readFileSync(join(set.get("daemon").dir, "README.md"), "utf8");
    let sessionStatus = 0;
    await runExample(exampleSteps(readme), project, userEnv(project), async (url) => {
      expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: "ok" });
      const page = await fetch(`${url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("<html");
      const session = await fetch(`${url}/session`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      sessionStatus = session.status;
      expect(await session.json()).toMatchObject({
        sessionId: expect.any(String),
        clientId: expect.any(String),
      });
    });
    expect(sessionStatus).toBe(200);
  });

  it("without @qwen-daemon/acp-child, refuses to start and says what to install or pass", () => {
    execFileSync(
      "npm",
      ["uninstall", "--no-audit", "--no-fund", "--loglevel=error", "@qwen-daemon/acp-child"],
      {
        cwd: project,
        stdio: "pipe",
      },
    );
    let stderr = "";
    try {
      const stdout = node(project, ["serve.mjs"]);
      throw new Error(`serve.mjs ran without the agent package:\n${stdout}`);
    } catch (error) {
      stderr = String((error as { stderr?: string }).stderr);
    }
    expect(stderr).toContain("npm install @qwen-daemon/acp-child");
    expect(stderr).toContain("childCommand");
  });
});

describe("@qwen-daemon/cli from its tarball", INSTALLED, () => {
  const project = installed("cli", ["cli"]);

  it("ships its hot bundles and no V8 code cache, although the built binary had written some", () => {
    expect(codeCachesAtPack.length).toBeGreaterThan(0);
    expect(readdirSync(join(set.get("cli").dir, "dist", "hot")).sort()).toEqual([
      "acp.cjs",
      "acp.cjs.map",
      "daemon-parts.cjs",
      "daemon-parts.cjs.map",
    ]);
  });

  it("loads with import and require, and types under nodenext, without the bundled packages installed", () => {
    expect(existsSync(join(project, "node_modules", "@qwen-daemon", "daemon"))).toBe(false);
    const { imported, required } = exportedNames(project, "@qwen-daemon/cli");
    expect(imported).toContain("parseServeArgs");
    expect(required).toEqual(imported);
    typecheck(project, {
      "use.mts": `import { parseServeArgs, SERVE_DEFAULTS, type ServeFlags } from "@qwen-daemon/cli";
const flags: ServeFlags = SERVE_DEFAULTS;
// @ts-expect-error the types are real: port is a number
const wrong: string = flags.port;
export { parseServeArgs, wrong };
`,
      "use.cts": `import cli = require("@qwen-daemon/cli");
export = cli.SERVE_DEFAULTS.maxSessions;
`,
    });
  });

  it("runs its README example: version, a headless turn, and qwen serve with the web client", async () => {
    const readme = readFileSync(join(set.get("cli").dir, "README.md"), "utf8");
    const { output } = await runExample(exampleSteps(readme), project, userEnv(project), async (url) => {
      expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: "ok" });
      const page = await fetch(`${url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("<html");
      const caps = (await (await fetch(`${url}/capabilities`)).json()) as { features: string[] };
      expect(caps.features).toContain("restore_ask_user_question");
    });
    expect(output.split("\n")[0]).toBe(set.get("cli").manifest.version);
    expect(output).toContain("[demo model]");
    expect(output).toContain("restore ask_user_question: on");
  });
});
