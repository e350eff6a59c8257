// Installs (or reuses) the reference implementation for the interop tests through setup-reference.sh:
// Node 22 + @qwen-code/qwen-code + @qwen-code/sdk from the npm registry into a cache folder. A failure is
// an error with the script's own explanation, so the tests fail with the reason instead of skipping.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const SETUP_SCRIPT = fileURLToPath(new URL("./setup-reference.sh", import.meta.url));

export interface ReferencePaths {
  /** A Node 22 binary (the reference and its SDK need it; the project itself runs on Node 20). */
  node22: string;
  /** `@qwen-code/qwen-code/cli-entry.js`, the `qwen` bin (re-spawns cli.js for --acp). */
  cli: string;
  /** `@qwen-code/qwen-code/cli.js`, what the reference daemon itself runs as its child. */
  cliJs: string;
  /** The `@qwen-code/sdk` package folder. */
  sdk: string;
}

/** `$QWEN_REF_CACHE`, else `<repo>/node_modules/.cache/qwen-ref` (ignored by git, survives between runs). */
export function referenceCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.QWEN_REF_CACHE || join(REPO_ROOT, "node_modules", ".cache", "qwen-ref");
}

const KEYS = {
  NODE22: "node22",
  QWEN_REF_CLI: "cli",
  QWEN_REF_CLI_JS: "cliJs",
  QWEN_REF_SDK: "sdk",
} as const;

/** Parses the script's `KEY=value` lines; throws naming what is missing. */
export function parseSetupOutput(stdout: string): ReferencePaths {
  const found: Partial<ReferencePaths> = {};
  for (const line of stdout.split("\n")) {
    const eq = line.indexOf("=");
    if (eq <= 0) continue;
    const key = line.slice(0, eq) as keyof typeof KEYS;
    if (key in KEYS) found[KEYS[key]] = line.slice(eq + 1).trim();
  }
  const missing = Object.entries(KEYS).flatMap(([key, field]) => (found[field] ? [] : [key]));
  if (missing.length > 0) {
    throw new Error(`setup-reference.sh printed no ${missing.join(", ")}; stdout was:\n${stdout}`);
  }
  return found as ReferencePaths;
}

/** Runs setup-reference.sh (idempotent: ~1 s when the cache is warm, ~30 s cold). */
export async function installReference(
  cacheDir = referenceCacheDir(),
  timeoutMs = 280_000,
): Promise<ReferencePaths> {
  const child = spawn("bash", [SETUP_SCRIPT, cacheDir], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    stdout += d;
  });
  child.stderr.setEncoding("utf8").on("data", (d: string) => {
    stderr += d;
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (c) => resolve(c));
  }).finally(() => clearTimeout(timer));
  if (code !== 0) {
    throw new Error(
      `Could not install the reference implementation into ${cacheDir} ` +
        `(setup-reference.sh exit ${code ?? `killed after ${timeoutMs} ms`}). ` +
        "The interop tests need the npm registry (or a warm cache; set QWEN_REF_CACHE to reuse one).\n" +
        `--- stderr ---\n${stderr.slice(-4000)}`,
    );
  }
  return parseSetupOutput(stdout);
}
