#!/usr/bin/env node
// The browser test drives Debian's Chromium (downloads of browser builds are blocked on these machines, so
// `playwright install` is not an option). Installs it with apt when it is missing and we may (root + apt-get);
// otherwise says how, and the browser test then fails with the same hint.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (existsSync(CHROMIUM)) process.exit(0);

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
const hasApt = spawnSync("sh", ["-c", "command -v apt-get"], { stdio: "ignore" }).status === 0;
if (!isRoot || !hasApt) {
  console.error(
    `[ensure-chromium] ${CHROMIUM} is missing; install it (Debian: sudo apt-get install -y chromium)`,
  );
  console.error("[ensure-chromium] or set CHROMIUM_PATH. The browser test will fail until then.");
  process.exit(0);
}
console.error("[ensure-chromium] installing Debian's chromium for the browser test ...");
const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
for (const args of [
  ["update", "-qq"],
  ["install", "-y", "-qq", "--no-install-recommends", "chromium"],
]) {
  const r = spawnSync("apt-get", args, { stdio: ["ignore", "ignore", "inherit"], env });
  if (r.status !== 0) {
    console.error(
      `[ensure-chromium] apt-get ${args.join(" ")} failed (exit ${r.status}); the browser test will fail`,
    );
    process.exit(0);
  }
}
