#!/usr/bin/env node
// System tools the end-to-end tests use beyond Node and npm: Debian's Chromium for the browser test
// (downloads of browser builds are blocked on these machines, so `playwright install` is not an option),
// curl and jq, which the README's walkthrough uses and its test runs, and PostgreSQL's server, which the
// storage tests start privately (scripts/test-postgres.mjs, which also installs it when a suite starts first). Installs what is missing with apt when
// we may (root + apt-get); otherwise says how, and the tests that need them fail with the same hint.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { findPostgresBin } from "./test-postgres.mjs";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const has = (command) => spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;

const missing = [
  ...(existsSync(CHROMIUM) ? [] : ["chromium"]),
  ...["curl", "jq"].filter((tool) => !has(tool)),
  ...(findPostgresBin() === undefined ? ["postgresql"] : []),
];
if (missing.length === 0) process.exit(0);

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
if (!isRoot || !has("apt-get")) {
  console.error(
    `[ensure-test-tools] missing: ${missing.join(", ")}; install them (Debian: sudo apt-get install -y ${missing.join(" ")})`,
  );
  console.error("[ensure-test-tools] (or set CHROMIUM_PATH). The tests that need them will fail until then.");
  process.exit(0);
}
console.error(`[ensure-test-tools] installing ${missing.join(", ")} with apt for the end-to-end tests ...`);
const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
for (const args of [
  ["update", "-qq"],
  ["install", "-y", "-qq", "--no-install-recommends", ...missing],
]) {
  const r = spawnSync("apt-get", args, { stdio: ["ignore", "ignore", "inherit"], env });
  if (r.status !== 0) {
    console.error(
      `[ensure-test-tools] apt-get ${args.join(" ")} failed (exit ${r.status}); the tests that need ${missing.join(", ")} will fail`,
    );
    process.exit(0);
  }
}
