// write_file: create or overwrite one workspace file with the given content (reference names and texts).
import { mkdir, stat } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { currentTextForPreview, previewPath } from "./call-preview.js";
import { localFileSystem, type ToolFileSystem } from "./file-system.js";
import type { Tool } from "./tool.js";
import { BUILTIN_RESTORE_CLASS, BuiltinToolName } from "./tool-names.js";
import { defineToolParams, errorText } from "./tool-params.js";
import { resolveWorkspacePath } from "./workspace-path.js";

const WriteFileParams = z.object({
  file_path: z
    .string()
    .min(1)
    .describe("Path of the file to write, absolute or relative to the workspace root."),
  content: z.string().describe("The content to write to the file."),
});

const params = defineToolParams(WriteFileParams);

async function existingKind(p: string): Promise<"file" | "directory" | "absent"> {
  try {
    return (await stat(p)).isDirectory() ? "directory" : "file";
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "absent";
    throw error;
  }
}

/**
 * write_file over `fs` (the disk by default, or a host's file system). Whether the path is a directory or
 * new, and the missing parent directories it creates, are the disk's: a host writes into this workspace.
 */
export function createWriteFileTool(fs: ToolFileSystem = localFileSystem): Tool {
  return {
    name: BuiltinToolName.writeFile,
    description:
      "Writes content to a file in the workspace, creating it (and missing parent directories) or replacing it. " +
      "The path may be absolute or relative to the workspace root. Read an existing file first: this replaces " +
      "its whole content.",
    get parameters() {
      return params.jsonSchema;
    },
    confirmation: "edit",
    restoreClass: BUILTIN_RESTORE_CLASS[BuiltinToolName.writeFile],
    validate: params.validate,
    describe(args, ctx) {
      const target = previewPath(args.file_path, ctx);
      const newText = typeof args.content === "string" ? args.content : "";
      return {
        title: `Write ${target}`,
        uiKind: "edit",
        locations: [{ path: target }],
        diff: { path: target, oldText: currentTextForPreview(target, ctx), newText },
      };
    },
    async execute(args, ctx) {
      try {
        const p = params.parse(args);
        const where = await resolveWorkspacePath(ctx.cwd, p.file_path);
        const kind = await existingKind(where.real);
        if (kind === "directory") return { error: `Path is a directory, not a file: ${where.display}` };
        await mkdir(path.dirname(where.real), { recursive: true });
        await fs.writeTextFile(where, p.content);
        return {
          output:
            kind === "absent"
              ? `Successfully created and wrote to new file: ${where.display}.`
              : `Successfully overwrote file: ${where.display}.`,
        };
      } catch (error) {
        return { error: errorText(error) };
      }
    },
  };
}

export const writeFileTool: Tool = createWriteFileTool();
