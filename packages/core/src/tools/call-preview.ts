// What describe() shows before a call runs. It is synchronous and best effort: it never decides whether
// a call is allowed (execute() does, with the full async workspace check), it only helps the user judge.
import { readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { looksBinary } from "./text-file.js";
import type { DescribeContext } from "./tool.js";
import { isWithin } from "./workspace-path.js";

const PREVIEW_MAX_BYTES = 1024 * 1024;

/** The absolute path a call's path argument names, as far as it can be known without a workspace root. */
export function previewPath(input: unknown, ctx?: DescribeContext): string {
  const raw = typeof input === "string" ? input : "";
  if (ctx) return path.resolve(ctx.cwd, raw);
  return raw;
}

/**
 * The file's current text for a diff, or null when it does not exist (a new file). Files outside the
 * workspace, binary or huge files are not read: they get null too, and execute() reports the real problem.
 */
export function currentTextForPreview(absPath: string, ctx?: DescribeContext): string | null {
  if (!ctx || !path.isAbsolute(absPath)) return null;
  try {
    const real = realpathSync(absPath);
    if (!isWithin(realpathSync(ctx.cwd), real)) return null;
    const stat = statSync(real);
    if (!stat.isFile() || stat.size > PREVIEW_MAX_BYTES) return null;
    const bytes = readFileSync(real);
    return looksBinary(bytes) ? null : bytes.toString("utf8");
  } catch (error) {
    // A missing file is the normal "new file" case; anything else (EACCES, ELOOP) also just means
    // "no preview": execute() will surface the real error to the model.
    if (error instanceof Error) return null;
    throw error;
  }
}
