// `qwen serve`: turns parsed flags into daemon options, starts the daemon and prints the banner.

import { existsSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
// node:http only (a test in the daemon pins that); the rest of the daemon is imported once the socket is bound.
import { listenEarly } from "@qwen-daemon/daemon/boot";
import { acpChildExtraArgs } from "../acp-child-extra-args.js";
import type { ServeFlags } from "../serve-flags.js";

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

/** How this very process was started, so children run the same qwen with the same loader flags. */
export function selfCommand(): string[] {
  const entry = process.argv[1];
  if (!entry) throw new Error("cannot tell which script started qwen (process.argv[1] is empty)");
  return [process.execPath, ...process.execArgv, entry];
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
  const workspace = resolveWorkspace(flags.workspace, process.cwd());
  const childCommand = flags.acpCommand ? parseAcpCommand(flags.acpCommand) : selfCommand();
  const web = flags.web ? await webRoot() : undefined;
  // Bind first, with the daemon's node:http-only boot module: /health answers while the heavy modules
  // (Hono app, ACP SDK, zod schemas, core) load. Anything else that arrives meanwhile waits for them.
  const bound = await listenEarly({ port: flags.port, hostname: flags.hostname });
  const { daemonModule, core, qwenHome, modelConfig } = await loadDaemonParts(env).catch(async (error) => {
    await bound.close();
    throw error;
  });
  const { startDaemon, installSignalHandlers } = daemonModule;
  // From here on the daemon owns `bound`, and closes it if it fails to start.
  const daemon = await startDaemon(
    {
      port: flags.port,
      hostname: flags.hostname,
      token: flags.token,
      requireAuth: flags.requireAuth,
      allowOrigins: flags.allowOrigin,
      workspace,
      maxSessions: flags.maxSessions,
      maxPendingPromptsPerSession: flags.maxPendingPromptsPerSession,
      maxConnections: flags.maxConnections,
      eventRingSize: flags.eventRingSize,
      permissionResponseTimeoutMs: flags.permissionResponseTimeoutMs,
      sessionIdleTimeoutMs: flags.sessionIdleTimeoutMs,
      permissionPolicy: flags.permissionPolicy,
      consensusQuorum: flags.consensusQuorum,
      restoreAskUserQuestion: flags.restoreAskUserQuestion,
      experimentalLsp: flags.experimentalLsp,
      warmChild: true,
      childCommand,
      childExtraArgs: acpChildExtraArgs(flags),
      qwenHome,
      webRoot: web,
      log: (line: string) => process.stderr.write(`${line}\n`),
    },
    { bound },
  );
  installSignalHandlers(daemon);
  const lines = [
    `qwen serve listening on ${daemon.url}`,
    `  workspace:  ${workspace}`,
    `  model:      ${core.describeModelProvider(core.createModelProvider(modelConfig))}`,
    `  policy:     ${flags.permissionPolicy}`,
    `  restore ask_user_question: ${flags.restoreAskUserQuestion ? "on" : "off (--restore-ask-user-question to enable)"}`,
  ];
  // A generated token has already been printed once, on stderr, by the daemon itself.
  lines.push(`  auth:       ${daemon.token ? "bearer token required" : "none (loopback only)"}`);
  process.stdout.write(`${lines.join("\n")}\n`);
}

/** The heavy modules, and what the daemon needs from core before it starts. */
async function loadDaemonParts(env: NodeJS.ProcessEnv) {
  const [daemonModule, core] = await Promise.all([
    import("@qwen-daemon/daemon"),
    import("@qwen-daemon/core"),
  ]);
  const qwenHome = core.resolveQwenHome(env);
  const modelConfig = core.resolveModelConfig({ env, qwenHome });
  return { daemonModule, core, qwenHome, modelConfig };
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
