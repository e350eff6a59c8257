// glob: workspace files whose path matches a glob pattern (node_modules and .git skipped).
import { stat } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { previewPath } from "./call-preview.js";
import { type WalkStats, walkFiles } from "./file-walk.js";
import { createGlobFilter } from "./glob-pattern.js";
import type { Tool } from "./tool.js";
import { BUILTIN_RESTORE_CLASS, BuiltinToolName } from "./tool-names.js";
import { defineToolParams, errorText } from "./tool-params.js";
import { isWithin, resolveWorkspacePath } from "./workspace-path.js";

export const GLOB_MAX_RESULTS = 1000;

const GlobParams = z.object({
  pattern: z
    .string()
    .min(1)
    .describe('The glob pattern to match files against, e.g. "**/*.ts" or "src/*.{js,json}".'),
  path: z
    .string()
    .min(1)
    .optional()
    .describe(
      "The directory to search in, absolute or relative to the workspace root. Defaults to the root.",
    ),
});

const params = defineToolParams(GlobParams);

/** An absolute pattern inside the search directory is made relative to it; the walker's paths are relative. */
function relativePattern(pattern: string, base: string): string {
  if (!path.isAbsolute(pattern)) return pattern;
  if (!isWithin(base, pattern))
    throw new Error(`Pattern "${pattern}" is outside the search directory "${base}".`);
  return path.relative(base, pattern).split(path.sep).join("/");
}

export const globTool: Tool = {
  name: BuiltinToolName.glob,
  description:
    'Finds files whose path matches a glob pattern ("**/*.ts", "src/**/*.{js,jsx}", "docs/?.md"). `**` spans ' +
    "directories, `*` and `?` stay within one. Returns absolute paths sorted by name. node_modules and .git are " +
    `skipped, symbolic links are not followed, at most ${GLOB_MAX_RESULTS} paths are listed.`,
  get parameters() {
    return params.jsonSchema;
  },
  confirmation: "none",
  restoreClass: BUILTIN_RESTORE_CLASS[BuiltinToolName.glob],
  validate: params.validate,
  describe(args, ctx) {
    const where = previewPath(args.path ?? ".", ctx);
    return { title: `Find files matching ${String(args.pattern)} in ${where}`, uiKind: "search" };
  },
  async execute(args, ctx) {
    try {
      const p = params.parse(args);
      const base = await resolveWorkspacePath(ctx.cwd, p.path ?? ".");
      if (!(await stat(base.real)).isDirectory())
        return { error: `Path is not a directory: ${base.display}` };
      const matches = createGlobFilter(relativePattern(p.pattern, base.display), {
        basenameIfNoSlash: false,
      });
      const found: string[] = [];
      const walk: WalkStats = { truncated: false };
      for await (const entry of walkFiles(base.real, { signal: ctx.signal }, walk)) {
        if (entry.kind === "file" && matches(entry.rel)) found.push(entry.rel);
      }
      if (found.length === 0)
        return { output: `No files found matching pattern "${p.pattern}" in ${base.display}` };
      found.sort();
      const shown = found.slice(0, GLOB_MAX_RESULTS).map((rel) => path.join(base.display, rel));
      const lines = [`Found ${found.length} file(s) matching "${p.pattern}" in ${base.display}:`, ...shown];
      if (found.length > shown.length)
        lines.push(`[Showing the first ${shown.length} of ${found.length} files.]`);
      if (walk.truncated) lines.push("[The directory tree is very large; the search stopped early.]");
      return { output: lines.join("\n") };
    } catch (error) {
      return { error: errorText(error) };
    }
  },
};
