// Power-loss states on a real disk: written into a fresh folder for a daemon to load, read back from the
// story's QWEN_HOME (to check that the op log accounts for every file there), and compared as plain text.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { DiskState } from "@qwen-daemon/core/testing";

/** Makes `state` under `root` (an empty folder): folders 0700, files 0600, as the daemon makes them. */
export function writeDiskState(state: DiskState, root: string): void {
  for (const dir of [...state.dirs].sort()) mkdirSync(join(root, dir), { recursive: true, mode: 0o700 });
  for (const [path, bytes] of state.files) writeFileSync(join(root, path), bytes, { mode: 0o600 });
}

/** The tree under `root` as the page cache has it now. */
export function readDiskState(root: string): DiskState {
  const state: DiskState = { dirs: [], files: new Map() };
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        state.dirs.push(relative(root, path));
        walk(path);
      } else state.files.set(relative(root, path), readFileSync(path));
    }
  };
  walk(root);
  state.dirs.sort();
  return state;
}

/** A state as plain data (folder list, file texts by path) for toEqual and for messages. */
export function describeDiskState(state: DiskState): { dirs: string[]; files: Record<string, string> } {
  const files = [...state.files.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  return {
    dirs: [...state.dirs].sort(),
    files: Object.fromEntries(files.map(([path, bytes]) => [path, Buffer.from(bytes).toString("utf8")])),
  };
}
