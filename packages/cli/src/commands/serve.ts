// `qwen serve`: turns parsed flags into daemon options, starts the daemon and prints the banner.

import { randomUUID } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { isAbsolute, resolve } from "node:path";
// Node builtins only (a test in the daemon pins that); the rest of the daemon is imported once the socket is
// bound and the child is started.
import { agentOnlyEnv } from "@qwen-daemon/core/agent-process-env";
import { RESTORE_KINDS } from "@qwen-daemon/core/restore-kinds";
import { absoluteStorageValue, agentStorageEnv } from "@qwen-daemon/core/storage-env";
import { childEnvironment, listenEarly, spawnChildChannel } from "@qwen-daemon/daemon/boot";
import { acpChildExtraArgs } from "../acp-child-extra-args.js";
import { importHot } from "../code-cache/load-bundle.js";
import type { ServeFlags } from "../serve-flags.js";
import { daemonOptionsFromFlags } from "../serve-options.js";
import { DAEMON_RUNTIME_V8_FLAGS, tuneDaemonHeap } from "./daemon-heap.js";
import { lateTurbofanFlag } from "./v8-tiering.js";

export class UsageError extends Error {
  override name = "UsageError";
}

/** `--acp-command` / QWEN_ACP_COMMAND: a JSON array of strings, program first. */
export function parseAcpCommand(raw: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new UsageError(
      `--acp-command must be a JSON array of strings, e.g. '["node","/path/cli.js"]'; got ${raw}`,
    );
  }
  if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === "string" && v !== "")) {
    throw new UsageError(`--acp-command must be a non-empty JSON array of non-empty strings; got ${raw}`);
  }
  return value;
}

/**
 * V8 flags for the ACP children the daemon starts (after this process's own, so they win). A child is a
 * long-lived, mostly idle process, so it keeps its memory down where that costs no speed (measured on one
 * idle session and on a 100k-record transcript load):
 * - `--max-semi-space-size=1`: a 1 MB young generation instead of one that doubles up to 16 MB after the
 *   allocation burst of loading its modules and stays committed (~4 MB RSS; the big load: within noise).
 * - a function is optimized by TurboFan after 4x as much execution as by default (the flag for this V8:
 *   v8-tiering.ts; the child runs this same node), so code that is hot only while modules load (zod building
 *   schemas) is not optimized for nothing (~4.5 MB RSS), while a long transcript load still gets optimized
 *   code early on.
 * - `--heap-growing-percent=20`: the old generation grows to 1.2x what survived the last full GC, not V8's
 *   dynamic 1.1x-4x, so the garbage of each turn that the small young generation promotes does not pile up to
 *   several times the live size with V8 keeping the pages (see daemon-heap.ts; BENCHMARKS.md, issue 20).
 *   V8 still lets it grow by at least 8 MB (its minimum step), which for the child's ~11 MB live heap is the
 *   larger bound: its sampled heap swings between ~11 and ~19 MB with the full GCs, every ~200 soak turns.
 * (`--optimize-for-size` would save ~1 MB more, and shrink that minimum step to 2 MB, but makes that
 * transcript load ~1.5x slower.) Besides these flags, the child gets MALLOC_ARENA_MAX=2 in its environment
 * for itself alone (ownChildEnv below; core's agent-process-env.ts says why).
 */
export const CHILD_V8_FLAGS: readonly string[] = [
  "--max-semi-space-size=1",
  lateTurbofanFlag(),
  "--heap-growing-percent=20",
];

/** How this very process was started, so children run the same qwen with the same loader flags. */
export function selfCommand(
  execArgv: readonly string[] = process.execArgv,
  entry: string | undefined = process.argv[1],
): string[] {
  if (!entry) throw new Error("cannot tell which script started qwen (process.argv[1] is empty)");
  return [process.execPath, ...execArgv, ...CHILD_V8_FLAGS, entry];
}

export function resolveWorkspace(flag: string | undefined, cwd: string): string {
  const ws = flag ?? cwd;
  if (!isAbsolute(ws)) throw new UsageError(`--workspace must be an absolute path; got "${ws}".`);
  if (!existsSync(ws) || !statSync(ws).isDirectory()) {
    throw new UsageError(`--workspace "${ws}" is not an existing directory.`);
  }
  return resolve(ws);
}

export async function runServe(flags: ServeFlags, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  tuneDaemonHeap(); // before the heavy modules load: their allocation burst is what grows the young generation
  const workspace = resolveWorkspace(flags.workspace, process.cwd());
  const childCommand = flags.acpCommand ? parseAcpCommand(flags.acpCommand) : selfCommand();
  const web = flags.web ? await webRoot() : undefined;
  // Bind first, with the daemon's node:http-only boot module: /health answers while the heavy modules
  // (Hono app, ACP SDK, zod schemas, core) load. Anything else that arrives meanwhile waits for them.
  const bound = await listenEarly({ port: flags.port, hostname: flags.hostname });
  // Then the workspace's ACP child, so that its boot overlaps the daemon's module loading below: a load
  // right after a restart waits for that child's initialize, not for the daemon's start plus the child's.
  const childExtraArgs = acpChildExtraArgs(flags);
  const storage = storageWiring(flags, bound);
  const childEnv = ownChildEnv(flags, storage?.childEnv);
  const prespawnedChild = {
    workspace,
    channel: spawnChildChannel({
      command: childCommand,
      extraArgs: childExtraArgs,
      workspace,
      env: childEnv,
    }),
  };
  const { daemonModule, qwenHome, modelConfig } = await loadDaemonParts(env).catch(async (error) => {
    prespawnedChild.channel.kill("SIGKILL");
    await bound.close();
    throw error;
  });
  const { startDaemon, installSignalHandlers, describeModelProvider, createModelProvider } = daemonModule;
  // From here on the daemon owns `bound`, and closes it if it fails to start.
  const daemon = await startDaemon(
    daemonOptionsFromFlags(flags, {
      workspace,
      childCommand,
      childExtraArgs,
      qwenHome,
      webRoot: web,
      log: (line: string) => process.stderr.write(`${line}\n`),
      ...(storage !== undefined ? { storageOwnerId: storage.ownerId } : {}),
      ...(childEnv !== undefined ? { childEnv } : {}),
    }),
    { bound, prespawnedChild },
  );
  installSignalHandlers(daemon);
  const lines = [
    `qwen serve listening on ${daemon.url}`,
    `  workspace:  ${workspace}`,
    `  storage:    ${daemon.storage}`,
    `  model:      ${describeModelProvider(createModelProvider(modelConfig))}`,
    `  policy:     ${flags.permissionPolicy}`,
    ...RESTORE_KINDS.map(
      (kind) => `  restore ${kind.label}: ${flags[kind.switch] ? "on" : `off (${kind.flag} to enable)`}`,
    ),
  ];
  // A generated token has already been printed once, on stderr, by the daemon itself.
  lines.push(`  auth:       ${daemon.token ? "bearer token required" : "none (loopback only)"}`);
  process.stdout.write(`${lines.join("\n")}\n`);
}

/**
 * The environment of the children: the storage's when there is one, and, for qwen's own agent (no
 * --acp-command; it removes them at start), what that process alone gets (agentOnlyEnv: glibc's arena cap).
 * Another agent program gets the daemon's environment as it is.
 */
export function ownChildEnv(
  flags: Pick<ServeFlags, "acpCommand">,
  storageEnv: Record<string, string> | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Record<string, string> | undefined {
  if (flags.acpCommand) return storageEnv;
  return { ...(storageEnv ?? childEnvironment(env)), ...agentOnlyEnv(env) };
}

/**
 * With --storage, what the workspace's agent needs before core is loaded: the daemon's owner id in the
 * session leases (minted here and handed to the daemon, so the agent started now and the daemon agree), and
 * the environment that gives the agent the storage (never its argv: `ps` shows argv to every local user).
 */
function storageWiring(
  flags: ServeFlags,
  bound: { server: { address(): unknown } },
): { ownerId: string; childEnv: Record<string, string> } | undefined {
  if (flags.storage === undefined) return undefined;
  const ownerId = `daemon_${randomUUID()}`;
  const address = bound.server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const ownerUrl = flags.publicUrl ?? `http://${host}:${address.port}`;
  const value = absoluteStorageValue(flags.storage, process.cwd());
  return {
    ownerId,
    childEnv: {
      ...childEnvironment(),
      ...agentStorageEnv(value, { id: ownerId, url: ownerUrl }, flags.sessionLeaseMs),
    },
  };
}

/**
 * The heavy modules, and what the daemon needs from core before it starts. An install loads their one-file
 * CommonJS build with V8's code cache (dist/hot/daemon-parts.cjs, beside this chunk in dist/); running from
 * the sources, where there is no such file, imports the ES module.
 */
async function loadDaemonParts(env: NodeJS.ProcessEnv) {
  const daemonModule = await importHot(
    new URL("./hot/daemon-parts.cjs", import.meta.url),
    () => import("./daemon-parts.js"),
    { runtimeV8Flags: DAEMON_RUNTIME_V8_FLAGS }, // tuneDaemonHeap set them: V8 checks a cache against them
  );
  const qwenHome = daemonModule.resolveQwenHome(env);
  const modelConfig = daemonModule.resolveModelConfig({ env, qwenHome });
  return { daemonModule, qwenHome, modelConfig };
}

/** The built web client, when this install has one. */
async function webRoot(): Promise<string | undefined> {
  const { fileURLToPath } = await import("node:url");
  const candidates = [
    new URL("./web/", import.meta.url), // the copy inside an installed cli (dist/web)
    new URL("../../../apps/web/dist/", import.meta.url), // a repo checkout
  ];
  for (const c of candidates) {
    const p = fileURLToPath(c);
    if (existsSync(resolve(p, "index.html"))) return p;
  }
  return undefined;
}
