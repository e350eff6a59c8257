#!/usr/bin/env node
// prepack / postpack of each published package (run in the package's folder by `pnpm pack` or `npm pack`).
// A package's README links to docs/*.md inside the package, so the links work in node_modules and in the
// tarball. In the repository that folder is a symlink to the repository's docs/ (one copy of the docs, and
// the links work in a checkout too); npm and pnpm leave symlinks out of a tarball, so prepack swaps the
// symlink for a real copy and postpack puts the symlink back.
import { cpSync, existsSync, lstatSync, rmSync, symlinkSync } from "node:fs";
import { join, resolve } from "node:path";

const LINK = "docs";
const TARGET = "../../docs";
const mode = process.argv[2];
const link = join(process.cwd(), LINK);
const isLink = () => existsSync(link) && lstatSync(link).isSymbolicLink();

if (mode === "prepack") {
  const source = resolve(process.cwd(), TARGET);
  if (!existsSync(join(source, "protocol.md"))) {
    console.error(
      `[pack-docs] ${source} has no protocol.md: run this from a package folder of the repository`,
    );
    process.exit(1);
  }
  if (isLink()) rmSync(link);
  rmSync(link, { recursive: true, force: true });
  cpSync(source, link, { recursive: true });
} else if (mode === "postpack") {
  if (!isLink()) {
    rmSync(link, { recursive: true, force: true });
    symlinkSync(TARGET, link);
  }
} else {
  console.error("usage: node scripts/pack-docs.mjs prepack|postpack");
  process.exit(2);
}
