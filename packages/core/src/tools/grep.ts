// grep: lines matching a JavaScript regular expression in workspace files, as `path:line:text`.
import { stat } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { previewPath } from "./call-preview.js";
import { type WalkEntry, type WalkStats, walkFiles } from "./file-walk.js";
import { createGlobFilter } from "./glob-pattern.js";
import { readTextFile, splitLines } from "./text-file.js";
import type { Tool } from "./tool.js";
import { BUILTIN_RESTORE_CLASS, BuiltinToolName } from "./tool-names.js";
import { defineToolParams, errorText } from "./tool-params.js";
import { resolveWorkspacePath } from "./workspace-path.js";

export const GREP_MAX_MATCHES = 200;
export const GREP_MAX_FILE_BYTES = 1024 * 1024;
export const GREP_MAX_LINE_CHARS = 300;

const GrepParams = z.object({
  pattern: z
    .string()
    .min(1)
    .describe('A JavaScript regular expression, e.g. "log.*Error" or "function\\s+\\w+".'),
  path: z
    .string()
    .min(1)
    .optional()
    .describe(
      "File or directory to search, absolute or relative to the workspace root. Defaults to the root.",
    ),
  glob: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Only search files matching this glob, e.g. "*.ts" (file name at any depth) or "src/**/*.{ts,tsx}".',
    ),
  limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`Maximum number of matching lines (default ${GREP_MAX_MATCHES}).`),
});

function regexProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern);
    return undefined;
  } catch (error) {
    return `Invalid regular expression pattern provided: ${pattern}. Error: ${errorText(error)}`;
  }
}

const params = defineToolParams(GrepParams, (p) => regexProblem(p.pattern));

function clip(line: string): string {
  const trimmed = line.trim();
  return trimmed.length > GREP_MAX_LINE_CHARS ? `${trimmed.slice(0, GREP_MAX_LINE_CHARS)}...` : trimmed;
}

async function* candidates(
  realBase: string,
  isFile: boolean,
  signal: AbortSignal,
  walk: WalkStats,
): AsyncGenerator<WalkEntry> {
  if (isFile) {
    yield { abs: realBase, rel: path.basename(realBase), kind: "file" };
    return;
  }
  yield* walkFiles(realBase, { signal }, walk);
}

export const grepTool: Tool = {
  name: BuiltinToolName.grep,
  description:
    "Searches file contents with a JavaScript regular expression (case-sensitive: write [Ee]rror to match " +
    "either case) and prints matching lines as path:line:text, paths relative to the workspace root. " +
    `Skips node_modules, .git, symbolic links, binary files and files over ${GREP_MAX_FILE_BYTES} bytes. ` +
    "Filter files with 'glob'.",
  get parameters() {
    return params.jsonSchema;
  },
  confirmation: "none",
  restoreClass: BUILTIN_RESTORE_CLASS[BuiltinToolName.grep],
  validate: params.validate,
  describe(args, ctx) {
    const where = previewPath(args.path ?? ".", ctx);
    return { title: `Search for ${String(args.pattern)} in ${where}`, uiKind: "search" };
  },
  async execute(args, ctx) {
    try {
      const p = params.parse(args);
      const root = path.resolve(ctx.cwd);
      const base = await resolveWorkspacePath(ctx.cwd, p.path ?? ".");
      const isFile = (await stat(base.real)).isFile();
      const regex = new RegExp(p.pattern);
      const wanted = p.glob ? createGlobFilter(p.glob, { basenameIfNoSlash: true }) : () => true;
      const limit = p.limit ?? GREP_MAX_MATCHES;
      const lines: string[] = [];
      let capped = false;
      const walk: WalkStats = { truncated: false };
      search: for await (const entry of candidates(base.real, isFile, ctx.signal, walk)) {
        if (entry.kind !== "file" || !wanted(entry.rel)) continue;
        if ((await stat(entry.abs)).size > GREP_MAX_FILE_BYTES) continue;
        const text = await readTextFile(entry.abs, GREP_MAX_FILE_BYTES);
        if (text === undefined) continue;
        const shownPath =
          path.relative(root, isFile ? base.display : path.join(base.display, entry.rel)) || ".";
        const fileLines = splitLines(text);
        for (let i = 0; i < fileLines.length; i++) {
          if (!regex.test(fileLines[i] as string)) continue;
          if (lines.length >= limit) {
            capped = true;
            break search;
          }
          lines.push(`${shownPath}:${i + 1}:${clip(fileLines[i] as string)}`);
        }
      }
      const filter = p.glob ? ` (filter: "${p.glob}")` : "";
      if (lines.length === 0)
        return { output: `No matches found for pattern "${p.pattern}" in ${base.display}${filter}.` };
      const header = `Found ${lines.length}${capped ? "+" : ""} match${lines.length === 1 ? "" : "es"} for pattern "${p.pattern}" in ${base.display}${filter}:`;
      const out = [header, ...lines];
      if (capped)
        out.push(`[Stopped after ${limit} matches; narrow the pattern, path or glob to see the rest.]`);
      if (walk.truncated) out.push("[The directory tree is very large; the search stopped early.]");
      return { output: out.join("\n") };
    } catch (error) {
      return { error: errorText(error) };
    }
  },
};
