// The README's "The restore story, by hand", run as written: its shell block is read from README.md (so the
// two cannot drift) and run by bash from the repository's folder, stopping at the first line that fails.
// The only thing the test chooses is a free port (the block reads PORT from the environment, defaulting to
// 4170) and a temp folder for its scratch directories (TMPDIR, read by mktemp).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { spawnCaptured } from "./harness/captured-process.js";
import { killTree } from "./harness/process-tree.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "qwen-readme-"));

/** The first ```sh block under the heading `## <title>` of README.md. */
function readmeBlock(title: string): string {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = readme.split(/^## /m).find((s) => s.startsWith(`${title}\n`));
  const block = section && /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error(`README.md has no \`\`\`sh block under "## ${title}"`);
  return block;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/** Whatever daemon still answers on the port (a step failed before the last line stopped it). */
async function leftoverDaemonPid(port: number): Promise<number | undefined> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/daemon/status`);
    return ((await res.json()) as { pid: number }).pid;
  } catch {
    return undefined;
  }
}

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("README: the restore story, by hand", () => {
  it("runs line by line in bash: asked, crashed, asked again, answered, file written, daemon stopped", async () => {
    const block = readmeBlock("The restore story, by hand");
    // The walkthrough must stop daemons by pid, never by name (that kills other people's qwen too).
    expect(block).not.toMatch(/\bpkill\b|\bkillall\b/);
    expect(block).not.toMatch(/<[A-Za-z ]+>/); // no placeholders to fill in by hand
    const port = await freePort();
    const run = spawnCaptured("bash", ["-euo", "pipefail", "-c", block], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port), TMPDIR: scratch },
      detached: true,
    });
    const timer = setTimeout(() => killTree(run.child.pid as number), 150_000);
    const code = await run.closed;
    clearTimeout(timer);
    const { stdout, stderr } = run;
    const leftover = await leftoverDaemonPid(port);
    if (leftover !== undefined) killTree(leftover);
    const files = readdirSync(scratch, { recursive: true, encoding: "utf8" });
    const read = (suffix: string) =>
      files
        .filter((f) => f.endsWith(suffix))
        .map((f) => readFileSync(join(scratch, f), "utf8"))
        .join("\n");
    const daemonLog = read("serve.log");
    const context = `stdout:\n${stdout}\nstderr:\n${stderr}\ndaemon log:\n${daemonLog}`;

    expect(code, context).toBe(0);
    expect(leftover, "the last line stopped the daemon").toBeUndefined();
    // The question before the crash, and the same question (new request id) after it.
    expect(stdout).toContain('"question":"How should I record your request \\"make notes\\"?"');
    const lines = stdout.split("\n");
    const firstRequestId = /"requestId":"([^"]+)","question"/.exec(stdout)?.[1];
    expect(firstRequestId, context).toBeDefined();
    const clientId = lines.find((l) => /^client_[0-9a-f-]{36}$/.test(l));
    expect(clientId, "a new client id printed after the load").toBeDefined();
    const reasked = lines[lines.indexOf(clientId as string) + 1];
    expect(reasked).toMatch(/^[0-9a-f-]{36}$/);
    expect(reasked).not.toBe(firstRequestId);
    // Then the write permission, and the file the demo wrote with the answer given after the restart.
    expect(stdout).toMatch(/"action":"Write .*demo-notes\.md"/);
    expect(stdout).toContain("Format: Checklist");
    expect(stdout).toContain("- [ ] Read the request");
    // What the README says the model got: the answer as the result of the call it made before the crash.
    const answered = "User has provided the following answers:\n\n**Format**: Checklist";
    expect(read(".jsonl")).toContain(JSON.stringify(answered).slice(1, -1));
    expect(daemonLog).toContain("SIGTERM received"); // stopped gracefully by the last line
  }, 180_000);
});
