// Confines every path a tool touches to the workspace. Two checks, because either alone is not enough:
// a lexical one (`..` segments, absolute paths elsewhere) and a physical one (symlinks inside the
// workspace that lead out of it, including dangling ones a write would follow and create).
import { lstat, readlink, realpath } from "node:fs/promises";
import path from "node:path";

export class WorkspacePathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WorkspacePathError";
  }
}

export interface WorkspacePath {
  /** Absolute path as the user sees it (root + input, normalized); use it in messages. */
  display: string;
  /** The same location with every symlink resolved; do I/O on this one. */
  real: string;
}

export function outsideWorkspaceMessage(input: string, root: string): string {
  return `Path "${input}" is outside the workspace "${root}".`;
}

/** True when `child` is `parent` or lies below it; both must be absolute and normalized. */
export function isWithin(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (!rel.startsWith(`..${path.sep}`) && rel !== ".." && !path.isAbsolute(rel));
}

const MAX_SYMLINK_HOPS = 40;

function errnoCode(error: unknown): string | undefined {
  return error instanceof Error && "code" in error
    ? String((error as NodeJS.ErrnoException).code)
    : undefined;
}

/**
 * The real path of `p` even when it does not exist yet: the nearest existing ancestor is resolved and the
 * missing tail appended. A dangling symlink is followed to where a write through it would land.
 */
async function realpathOfNearest(p: string, hops = 0): Promise<string> {
  try {
    return await realpath(p);
  } catch (error) {
    const code = errnoCode(error);
    if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
  }
  const stat = await lstat(p).catch((error: unknown) => {
    const code = errnoCode(error);
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw error;
  });
  if (stat?.isSymbolicLink()) {
    if (hops >= MAX_SYMLINK_HOPS)
      throw new WorkspacePathError(`Too many symbolic links while resolving "${p}".`);
    const target = path.resolve(path.dirname(p), await readlink(p));
    return realpathOfNearest(target, hops + 1);
  }
  const parent = path.dirname(p);
  if (parent === p) return p;
  return path.join(await realpathOfNearest(parent, hops), path.basename(p));
}

/**
 * Resolves `input` (absolute, or relative to `root`) and rejects it when it leaves the workspace, either
 * lexically or through a symlink. Throws WorkspacePathError with a message meant for the model.
 */
export async function resolveWorkspacePath(root: string, input: string): Promise<WorkspacePath> {
  if (input.trim() === "") throw new WorkspacePathError("The path must be a non-empty string.");
  if (input.includes("\0")) throw new WorkspacePathError(`Path "${input}" contains a NUL character.`);
  const absRoot = path.resolve(root);
  const display = path.resolve(absRoot, input);
  if (!isWithin(absRoot, display)) throw new WorkspacePathError(outsideWorkspaceMessage(input, absRoot));
  const realRoot = await realpath(absRoot);
  const real = await realpathOfNearest(display);
  if (!isWithin(realRoot, real)) throw new WorkspacePathError(outsideWorkspaceMessage(input, absRoot));
  return { display, real };
}
