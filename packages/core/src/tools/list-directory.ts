// list_directory: the entries directly inside one workspace directory, directories first.
import { readdir, stat } from "node:fs/promises";
import { z } from "zod";
import { previewPath } from "./call-preview.js";
import type { Tool } from "./tool.js";
import { BUILTIN_RESTORE_CLASS, BuiltinToolName } from "./tool-names.js";
import { defineToolParams, errorText } from "./tool-params.js";
import { resolveWorkspacePath } from "./workspace-path.js";

export const LIST_DIRECTORY_MAX_ENTRIES = 1000;

const ListDirectoryParams = z.object({
  path: z
    .string()
    .min(1)
    .describe('The directory to list, absolute or relative to the workspace root ("." for the root).'),
});

const params = defineToolParams(ListDirectoryParams);

export const listDirectoryTool: Tool = {
  name: BuiltinToolName.listDirectory,
  description:
    "Lists the names of files and subdirectories directly inside a workspace directory. Directories are " +
    "marked [DIR] and symbolic links [LINK].",
  get parameters() {
    return params.jsonSchema;
  },
  confirmation: "none",
  restoreClass: BUILTIN_RESTORE_CLASS[BuiltinToolName.listDirectory],
  validate: params.validate,
  describe(args, ctx) {
    const target = previewPath(args.path, ctx);
    return { title: `List ${target}`, uiKind: "read", locations: [{ path: target }] };
  },
  async execute(args, ctx) {
    try {
      const p = params.parse(args);
      const where = await resolveWorkspacePath(ctx.cwd, p.path);
      const info = await stat(where.real).catch((error: unknown) => {
        if ((error as NodeJS.ErrnoException).code === "ENOENT")
          throw new Error(`Directory not found: ${where.display}`);
        throw error;
      });
      if (!info.isDirectory()) return { error: `Path is not a directory: ${where.display}` };
      const entries = await readdir(where.real, { withFileTypes: true });
      if (entries.length === 0) return { output: `Directory ${where.display} is empty.` };
      const rank = (e: (typeof entries)[number]) => (e.isDirectory() ? 0 : 1);
      entries.sort((a, b) => rank(a) - rank(b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const shown = entries.slice(0, LIST_DIRECTORY_MAX_ENTRIES).map((e) => {
        if (e.isDirectory()) return `[DIR] ${e.name}`;
        if (e.isSymbolicLink()) return `[LINK] ${e.name}`;
        return e.name;
      });
      const lines = [`Directory listing for ${where.display}:`, ...shown];
      if (entries.length > shown.length)
        lines.push(`[Showing the first ${shown.length} of ${entries.length} entries.]`);
      return { output: lines.join("\n") };
    } catch (error) {
      return { error: errorText(error) };
    }
  },
};
