#!/usr/bin/env node
// Installs the workspace's dependencies on a machine that has only Node and npm.
// pnpm is pinned (see ../shared/TOOLCHAIN.md) and fetched through npx, because corepack fails here.
// Skips the install when node_modules is already newer than the lockfile, so repeat runs start fast.
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const marker = join(root, "node_modules", ".modules.yaml");
const lock = join(root, "pnpm-lock.yaml");

const upToDate = existsSync(marker) && existsSync(lock) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs;
if (upToDate && !process.argv.includes("--force")) process.exit(0);

const viaPnpm = (process.env.npm_config_user_agent ?? "").startsWith("pnpm/");
const [cmd, args] = viaPnpm ? ["pnpm", []] : ["npx", ["-y", "pnpm@12.4.2"]];
const frozen = existsSync(lock) ? ["--frozen-lockfile"] : [];
console.error(`[bootstrap] installing dependencies with pnpm 12.4.2 ...`);
const r = spawnSync(cmd, [...args, "install", ...frozen], { cwd: root, stdio: "inherit" });
if (r.status !== 0) {
  console.error(`[bootstrap] dependency install failed (exit ${r.status ?? r.signal})`);
  process.exit(r.status ?? 1);
}
