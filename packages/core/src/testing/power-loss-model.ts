// What a power cut leaves on the disk, computed from the file-system operations a story made (fs-op-log.ts).
// Pure. The model is the one docs/restore.md "Power loss" states, the weakest a POSIX file system promises:
// - a file's bytes are those it had at its last fsync (none before the first); unsynced appends are lost;
// - a name in a folder (a file created, a folder made, a rename's new name, a removal) is as the folder was
//   at its last fsync: a name made or changed since then reverts (an unsynced rename leaves the old file,
//   an unsynced removal brings the file back, a folder whose name is lost takes everything below it along);
// - the story's root folder exists, empty, before the first operation; operations outside it are not modelled.
// A process crash (SIGKILL) loses nothing of this: the page cache keeps every operation (`withoutPowerLoss`).
import { posix } from "node:path";
import type { FsOp } from "../storage/fs-op-log.js";

/** A folder tree below the root: folders and files by path relative to the root ("a/b", "a/b/c.jsonl"). */
export interface DiskState {
  dirs: string[];
  files: Map<string, Uint8Array>;
}

type Inode =
  | { kind: "file"; bytes: Uint8Array; synced: Uint8Array }
  | { kind: "dir"; names: Map<string, number>; synced: Map<string, number> };

/** The disk after the first `cut` operations of `ops` and a power cut. */
export function afterPowerLoss(ops: readonly FsOp[], root: string, cut = ops.length): DiskState {
  return replay(ops.slice(0, cut), root).read("synced");
}

/** The disk after `ops` and a crash of the processes only (every operation kept by the page cache). */
export function withoutPowerLoss(ops: readonly FsOp[], root: string): DiskState {
  return replay(ops, root).read("current");
}

/** A string equal for equal states (to run the load once per distinct state). */
export function diskStateKey(state: DiskState): string {
  const files = [...state.files.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([path, bytes]) => `${path}:${Buffer.from(bytes).toString("base64")}`);
  return JSON.stringify([[...state.dirs].sort(), files]);
}

function replay(ops: readonly FsOp[], root: string) {
  const inodes: Inode[] = [{ kind: "dir", names: new Map(), synced: new Map() }];
  const ROOT = 0;

  /** The path's parts below the root, or undefined for a path outside it (or the root itself). */
  const partsOf = (path: string): string[] | undefined => {
    const rel = posix.relative(root, path);
    if (rel === "" || rel.startsWith("..") || posix.isAbsolute(rel)) return undefined;
    return rel.split("/");
  };
  const dirAt = (id: number | undefined) => {
    const inode = id === undefined ? undefined : inodes[id];
    return inode?.kind === "dir" ? inode : undefined;
  };
  /** The inode a path names now, following current names (the root for the root itself). */
  const lookup = (path: string): number | undefined => {
    if (posix.relative(root, path) === "") return ROOT;
    const parts = partsOf(path);
    if (parts === undefined) return undefined;
    let at: number | undefined = ROOT;
    for (const part of parts) at = dirAt(at)?.names.get(part);
    return at;
  };
  /** The folder holding a path's last name, and that name. */
  const parentOf = (path: string) => {
    if (partsOf(path) === undefined) return undefined;
    const dir = dirAt(lookup(posix.dirname(path)));
    if (dir === undefined) throw new Error(`power-loss model: no folder for ${path}`);
    return { dir, name: posix.basename(path) };
  };
  const fileAt = (path: string) => {
    if (partsOf(path) === undefined) return undefined;
    const id = lookup(path);
    const inode = id === undefined ? undefined : inodes[id];
    if (inode?.kind !== "file") throw new Error(`power-loss model: no file at ${path}`);
    return inode;
  };

  for (const op of ops) {
    switch (op.op) {
      case "mkdir": {
        const at = parentOf(op.path);
        if (at === undefined || at.dir.names.has(at.name)) break;
        inodes.push({ kind: "dir", names: new Map(), synced: new Map() });
        at.dir.names.set(at.name, inodes.length - 1);
        break;
      }
      case "create": {
        const at = parentOf(op.path);
        if (at === undefined) break;
        inodes.push({ kind: "file", bytes: new Uint8Array(), synced: new Uint8Array() });
        at.dir.names.set(at.name, inodes.length - 1);
        break;
      }
      case "append": {
        const file = fileAt(op.path);
        if (file !== undefined) file.bytes = Buffer.concat([file.bytes, Buffer.from(op.base64, "base64")]);
        break;
      }
      case "fsync": {
        const file = fileAt(op.path);
        if (file !== undefined) file.synced = file.bytes;
        break;
      }
      case "fsyncDir": {
        const dir = dirAt(lookup(op.path));
        if (dir !== undefined) dir.synced = new Map(dir.names);
        break;
      }
      case "rename": {
        const from = parentOf(op.from);
        const to = parentOf(op.to);
        if (from === undefined || to === undefined) break;
        const id = from.dir.names.get(from.name);
        if (id === undefined) throw new Error(`power-loss model: nothing to rename at ${op.from}`);
        from.dir.names.delete(from.name);
        to.dir.names.set(to.name, id);
        break;
      }
      case "unlink": {
        parentOf(op.path)?.dir.names.delete(posix.basename(op.path));
        break;
      }
    }
  }

  return {
    read(which: "synced" | "current"): DiskState {
      const state: DiskState = { dirs: [], files: new Map() };
      const walk = (id: number, prefix: string) => {
        const dir = dirAt(id);
        if (dir === undefined) return;
        for (const [name, child] of which === "synced" ? dir.synced : dir.names) {
          const path = prefix === "" ? name : `${prefix}/${name}`;
          const inode = inodes[child];
          if (inode?.kind === "file") state.files.set(path, which === "synced" ? inode.synced : inode.bytes);
          else if (inode?.kind === "dir") {
            state.dirs.push(path);
            walk(child, path);
          }
        }
      };
      walk(ROOT, "");
      state.dirs.sort();
      return state;
    },
  };
}
