// The published packages as a user gets them: `pnpm pack` of each built package (the pinned pnpm from the
// repository's node_modules, which applies publishConfig and turns `workspace:*` into versions), unpacked
// for inspection and installed with npm into empty projects.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const PACKAGES = ["core", "acp-child", "daemon", "cli"] as const;
export type PackageName = (typeof PACKAGES)[number];

export interface Tarball {
  name: PackageName;
  /** The .tgz file. */
  file: string;
  /** Where it is unpacked (the `package/` folder of the tarball). */
  dir: string;
  manifest: Record<string, unknown>;
}

export class TarballSet {
  readonly root = mkdtempSync(join(tmpdir(), "qwen-tarballs-"));
  readonly tarballs = new Map<PackageName, Tarball>();

  /** Packs every package (they must be built). */
  packAll(): void {
    const pnpm = join(ROOT, "node_modules", ".bin", "pnpm");
    for (const name of PACKAGES) {
      const packageDir = join(ROOT, "packages", name);
      if (!existsSync(join(packageDir, "dist")))
        throw new Error(`${packageDir}/dist is missing: build first`);
      const out = join(this.root, name);
      mkdirSync(out);
      execFileSync(pnpm, ["pack", "--pack-destination", out], { cwd: packageDir, stdio: "pipe" });
      const file = join(out, `qwen-daemon-${name}-${this.version(packageDir)}.tgz`);
      execFileSync("tar", ["xzf", file, "-C", out]);
      const dir = join(out, "package");
      this.tarballs.set(name, {
        name,
        file,
        dir,
        manifest: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")),
      });
    }
  }

  get(name: PackageName): Tarball {
    const tarball = this.tarballs.get(name);
    if (!tarball) throw new Error(`${name} was not packed`);
    return tarball;
  }

  /** The folder of an empty project (made now; `install` fills it). */
  projectDir(label: string): string {
    const dir = join(this.root, `project-${label}`);
    mkdirSync(dir);
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: `try-${label}`, private: true }));
    return dir;
  }

  /** Installs the given tarballs from their files into a project (their dependencies from the registry). */
  install(dir: string, names: readonly PackageName[]): void {
    const files = names.map((name) => this.get(name).file);
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...files], {
      cwd: dir,
      stdio: "pipe",
    });
  }

  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }

  private version(packageDir: string): string {
    return (JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { version: string })
      .version;
  }
}

/** Every file path an `exports` map (or a nested condition object) points at, with its condition path. */
export function exportTargets(exports: unknown, at = "exports"): { where: string; target: string }[] {
  if (typeof exports === "string") return [{ where: at, target: exports }];
  if (exports === null || typeof exports !== "object") return [];
  return Object.entries(exports).flatMap(([key, value]) => exportTargets(value, `${at}[${key}]`));
}

/** Every condition name used anywhere in an `exports` map. */
export function exportConditions(exports: unknown): string[] {
  if (exports === null || typeof exports !== "object") return [];
  return Object.entries(exports).flatMap(([key, value]) => [
    ...(key.startsWith(".") ? [] : [key]),
    ...exportConditions(value),
  ]);
}
