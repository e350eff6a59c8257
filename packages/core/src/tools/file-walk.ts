// Depth-first walk of a directory tree for glob and grep. Symlinks are reported but never followed, so a
// link inside the workspace cannot lead the walk (or grep's reads) outside it. Order is by name, so
// results are stable across runs.
import { readdir } from "node:fs/promises";
import path from "node:path";

export const DEFAULT_SKIPPED_DIRS: ReadonlySet<string> = new Set(["node_modules", ".git"]);

export interface WalkEntry {
  /** Absolute path. */
  abs: string;
  /** Path relative to the walk's base, with `/` separators. */
  rel: string;
  kind: "file" | "symlink";
}

export interface WalkOptions {
  signal?: AbortSignal;
  skipDirs?: ReadonlySet<string>;
  /** Stop after visiting this many entries (files and directories), so a huge tree cannot stall a call. */
  maxEntries?: number;
}

export interface WalkStats {
  /** True when maxEntries stopped the walk early. */
  truncated: boolean;
}

export async function* walkFiles(
  base: string,
  options: WalkOptions = {},
  stats: WalkStats = { truncated: false },
): AsyncGenerator<WalkEntry> {
  const skip = options.skipDirs ?? DEFAULT_SKIPPED_DIRS;
  const maxEntries = options.maxEntries ?? 200_000;
  let visited = 0;
  const stack: { abs: string; rel: string }[] = [{ abs: base, rel: "" }];
  while (stack.length > 0) {
    options.signal?.throwIfAborted();
    const dir = stack.pop() as { abs: string; rel: string };
    const entries = await readdir(dir.abs, { withFileTypes: true }).catch((error: unknown) => {
      // A directory that vanished or is unreadable mid-walk is skipped rather than failing the search.
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "EACCES" || code === "EPERM" || code === "ENOTDIR") return [];
      throw error;
    });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: { abs: string; rel: string }[] = [];
    for (const entry of entries) {
      if (++visited > maxEntries) {
        stats.truncated = true;
        return;
      }
      const abs = path.join(dir.abs, entry.name);
      const rel = dir.rel === "" ? entry.name : `${dir.rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!skip.has(entry.name)) subdirs.push({ abs, rel });
      } else if (entry.isFile()) {
        yield { abs, rel, kind: "file" };
      } else if (entry.isSymbolicLink()) {
        yield { abs, rel, kind: "symlink" };
      }
    }
    // Reverse so the stack pops subdirectories in name order.
    for (let k = subdirs.length - 1; k >= 0; k--) stack.push(subdirs[k] as { abs: string; rel: string });
  }
}
