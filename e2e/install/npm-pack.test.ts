// The cli as users install it: `npm pack` of the built package into an empty project (npm registry only),
// then the installed `qwen` binary runs and serves. Catches a dependency that the bundle needs at run time
// but package.json does not declare, and a web client that did not make it into the tarball.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { DaemonProcess } from "../harness/daemon-process.js";

const CLI_DIR = fileURLToPath(new URL("../../packages/cli/", import.meta.url));
const project = mkdtempSync(join(tmpdir(), "qwen-pack-"));

afterAll(() => rmSync(project, { recursive: true, force: true }));

describe("npm pack of @qwen-daemon/cli into an empty project", () => {
  it("installs a working qwen bin that serves /health and the web client", async () => {
    const tarball = execFileSync("npm", ["pack", "--silent", "--pack-destination", project], {
      cwd: CLI_DIR,
      encoding: "utf8",
    }).trim();
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "pack-test", private: true }));
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", join(project, tarball)], {
      cwd: project,
      stdio: "pipe",
    });
    const bin = join(project, "node_modules", ".bin", "qwen");
    expect(execFileSync(bin, ["--version"], { encoding: "utf8" }).trim()).toMatch(/^\d+\.\d+\.\d+$/);

    const daemon = await DaemonProcess.start({
      command: [bin],
      cwd: project,
      env: { QWEN_HOME: join(project, "home") },
    });
    try {
      expect(await (await fetch(`${daemon.url}/health`)).json()).toEqual({ status: "ok" });
      const page = await fetch(`${daemon.url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("<html");
    } finally {
      await daemon.kill9();
    }
  }, 120_000);
});
