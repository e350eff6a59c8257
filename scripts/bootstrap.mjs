#!/usr/bin/env node
// Installs the workspace's dependencies on a machine that has only Node and npm.
// pnpm is pinned in package.json twice over: `packageManager` (what turbo and pnpm itself check) and a root
// devDependency of the same version, so that after the first install `node_modules/.bin/pnpm` exists and
// every npm script (turbo runs each package's scripts through pnpm) finds it on its PATH, with nothing
// installed globally. The first install has no local pnpm yet and fetches the pinned one through npx
// (corepack fails on these machines). Skips the install when node_modules is already newer than the
// lockfile, so repeat runs start fast.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const marker = join(root, "node_modules", ".modules.yaml");
const lock = join(root, "pnpm-lock.yaml");

const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const version = /^pnpm@(\d+\.\d+\.\d+)$/.exec(manifest.packageManager ?? "")?.[1];
if (!version || manifest.devDependencies?.pnpm !== version) {
  console.error(
    `[bootstrap] package.json must pin pnpm once: "packageManager": "pnpm@X.Y.Z" and devDependencies.pnpm "X.Y.Z" (found ${manifest.packageManager} and ${manifest.devDependencies?.pnpm})`,
  );
  process.exit(1);
}

const upToDate = existsSync(marker) && existsSync(lock) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs;
if (upToDate && !process.argv.includes("--force")) process.exit(0);

/** The pnpm a previous install left in node_modules, when it is the pinned version. */
function localPnpm() {
  const bin = join(root, "node_modules", ".bin", "pnpm");
  const pkg = join(root, "node_modules", "pnpm", "package.json");
  if (!existsSync(bin) || !existsSync(pkg)) return undefined;
  return JSON.parse(readFileSync(pkg, "utf8")).version === version ? bin : undefined;
}

const local = localPnpm();
const [cmd, args] = local ? [local, []] : ["npx", ["-y", `pnpm@${version}`]];
const frozen = existsSync(lock) ? ["--frozen-lockfile"] : [];
console.error(
  `[bootstrap] installing dependencies with pnpm ${version}${local ? "" : " (fetched by npx)"} ...`,
);
const r = spawnSync(cmd, [...args, "install", ...frozen], { cwd: root, stdio: "inherit" });
if (r.status !== 0) {
  console.error(`[bootstrap] dependency install failed (exit ${r.status ?? r.signal})`);
  process.exit(r.status ?? 1);
}
