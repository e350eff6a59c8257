// A package README as a user reads it: its links, and the "## Example" section run as written in a project
// where the package is installed. In that section a ```js block is saved under the name its first line gives
// (`// serve.mjs: ...`), and each line of a ```sh block runs in bash in the project, in order. A line that
// starts a daemon (it runs `serve`) keeps running: it is checked while it serves, then stopped as Ctrl-C does.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { spawnCaptured } from "../harness/captured-process.js";
import { killTree } from "../harness/process-tree.js";

export interface ExampleStep {
  kind: "file" | "command" | "server";
  /** The file name (kind "file") or the shell line. */
  text: string;
  /** The file's content (kind "file"). */
  content?: string;
}

/** The section `## <title>` of a markdown text (up to the next `## `), or undefined. */
export function section(markdown: string, title: string): string | undefined {
  return markdown.split(/^## /m).find((s) => s.startsWith(`${title}\n`));
}

export function exampleSteps(readme: string): ExampleStep[] {
  const example = section(readme, "Example");
  if (!example) throw new Error('the README has no "## Example" section');
  const steps: ExampleStep[] = [];
  for (const [, lang, body] of example.matchAll(/```(\w+)\n([\s\S]*?)```/g)) {
    if (lang === "js") {
      const name = /^\/\/ ([\w.-]+\.mjs):/.exec(body as string)?.[1];
      if (!name) throw new Error("a js example must start with `// <name>.mjs: ...`");
      steps.push({ kind: "file", text: name, content: body as string });
    } else if (lang === "sh") {
      for (const line of (body as string).split("\n").filter((l) => l.trim() !== "")) {
        steps.push({ kind: /\bserve\b/.test(line) ? "server" : "command", text: line });
      }
    }
  }
  if (!steps.some((s) => s.kind !== "file")) throw new Error("the example has no command to run");
  return steps;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\w\s-]/g, "")
    .replace(/\s/g, "-");
}

/**
 * Links of a markdown file that do not resolve inside `packageDir` (relative targets that are missing or
 * outside it, and `#anchors` with no such heading). Absolute http(s) links are not followed.
 */
export function brokenLinks(markdownFile: string, packageDir: string): string[] {
  const text = readFileSync(markdownFile, "utf8").replace(/```[\s\S]*?```/g, "");
  const broken: string[] = [];
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^https?:\/\//.test(target as string)) continue;
    const [path, anchor] = (target as string).split("#");
    const file = path ? normalize(join(dirname(markdownFile), path)) : markdownFile;
    if (!file.startsWith(packageDir) || !existsSync(file)) {
      broken.push(`${target} (no such file in the package)`);
      continue;
    }
    if (anchor) {
      const headings = [...readFileSync(file, "utf8").matchAll(/^#+ (.+)$/gm)].map((m) =>
        anchorOf(m[1] as string),
      );
      if (!headings.includes(anchor)) broken.push(`${target} (no heading #${anchor})`);
    }
  }
  return broken;
}

export type ServerCheck = (url: string) => Promise<void>;

export interface ExampleRun {
  /** stdout of every command, in order. */
  output: string;
}

/**
 * Runs the steps in `cwd` with `env`. A server step must print `listening on <url>` within the timeout;
 * `whileServing` checks it, then it gets a Ctrl-C and must shut down cleanly.
 */
export async function runExample(
  steps: ExampleStep[],
  cwd: string,
  env: Record<string, string>,
  whileServing: ServerCheck,
): Promise<ExampleRun> {
  let output = "";
  for (const step of steps) {
    if (step.kind === "file") {
      writeFileSync(join(cwd, step.text), step.content as string);
    } else if (step.kind === "command") {
      output += execFileSync("bash", ["-c", step.text], {
        cwd,
        env,
        encoding: "utf8",
        stdio: "pipe",
        timeout: 120_000,
      });
    } else {
      output += await serveOnce(step.text, cwd, env, whileServing);
    }
  }
  return { output };
}

function groupAlive(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
}

async function serveOnce(
  line: string,
  cwd: string,
  env: Record<string, string>,
  whileServing: ServerCheck,
): Promise<string> {
  const run = spawnCaptured("bash", ["-c", `exec ${line}`], { cwd, env, detached: true });
  const { child } = run;
  const group = child.pid as number; // its own process group, as a terminal's foreground job
  try {
    const deadline = Date.now() + 60_000;
    const listening = () => /listening on (http:\/\/\S+)/.exec(run.stdout)?.[1];
    while (!listening()) {
      if (child.exitCode !== null)
        throw new Error(`\`${line}\` exited ${child.exitCode}:\n${run.stdout}\n${run.stderr}`);
      if (Date.now() > deadline) throw new Error(`\`${line}\` did not listen:\n${run.stdout}\n${run.stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    await whileServing(listening() as string);
    // Ctrl-C: SIGINT to the whole group (a wrapper such as npx, and the program under it).
    process.kill(-group, "SIGINT");
    await run.closed;
    const deadline2 = Date.now() + 20_000;
    while (groupAlive(group)) {
      if (Date.now() > deadline2)
        throw new Error(`\`${line}\` still running 20 s after Ctrl-C:\n${run.stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    if (!run.stderr.includes("SIGINT received, shutting down"))
      throw new Error(`\`${line}\` did not shut down on Ctrl-C:\n${run.stderr}`);
    return run.stdout;
  } finally {
    if (groupAlive(group)) {
      killTree(group);
      process.kill(-group, "SIGKILL");
    }
  }
}
