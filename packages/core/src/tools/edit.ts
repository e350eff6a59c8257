// edit: exact-string replacement in one workspace file; an empty old_string creates a new file.
// Error texts follow the reference's model-facing ("raw") wording.
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { currentTextForPreview, previewPath } from "./call-preview.js";
import { localFileSystem, type ToolFileSystem } from "./file-system.js";
import type { Tool } from "./tool.js";
import { BUILTIN_RESTORE_CLASS, BuiltinToolName } from "./tool-names.js";
import { defineToolParams, errorText } from "./tool-params.js";
import { resolveWorkspacePath, type WorkspacePath } from "./workspace-path.js";

const EDIT_MAX_BYTES = 10 * 1024 * 1024;

const EditParams = z.object({
  file_path: z
    .string()
    .min(1)
    .describe("Path of the file to modify, absolute or relative to the workspace root."),
  old_string: z
    .string()
    .describe(
      "The exact literal text to replace, including whitespace and indentation; include enough context to make " +
        "it unique. Empty to create a new file.",
    ),
  new_string: z.string().describe("The exact literal text to replace `old_string` with."),
  replace_all: z.boolean().optional().describe("Replace all occurrences of old_string (default false)."),
});

const params = defineToolParams(EditParams);

export type EditOutcome = { content: string; isNewFile: boolean; occurrences: number } | { error: string };

function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length))
    count++;
  return count;
}

/** Pure: the new file content, or the error text. `current` is null when the file does not exist. */
export function applyEdit(
  current: string | null,
  edit: { filePath: string; oldString: string; newString: string; replaceAll: boolean },
): EditOutcome {
  const { filePath, oldString, newString, replaceAll } = edit;
  if (current === null) {
    if (oldString === "") return { content: newString, isNewFile: true, occurrences: 0 };
    return { error: `File not found: ${filePath}. Use an empty old_string to create a new file.` };
  }
  if (oldString === "") return { error: `File already exists, cannot create: ${filePath}` };
  const occurrences = countOccurrences(current, oldString);
  if (occurrences === 0) {
    return {
      error:
        `Failed to edit, 0 occurrences found for old_string in ${filePath}. No edits made. The exact text in ` +
        "old_string was not found. Ensure you're not escaping content incorrectly and check whitespace, " +
        `indentation, and context. Use ${BuiltinToolName.readFile} tool to verify.`,
    };
  }
  if (occurrences > 1 && !replaceAll) {
    return {
      error: `Failed to edit. Found ${occurrences} occurrences for old_string in ${filePath} but replace_all was not enabled.`,
    };
  }
  if (oldString === newString) {
    return { error: `No changes to apply. The old_string and new_string are identical in file: ${filePath}` };
  }
  // split/join and slicing, not String.replace: `$&`-style patterns in new_string must stay literal.
  const content = replaceAll
    ? current.split(oldString).join(newString)
    : (() => {
        const at = current.indexOf(oldString);
        return current.slice(0, at) + newString + current.slice(at + oldString.length);
      })();
  return { content, isNewFile: false, occurrences };
}

async function readIfExists(fs: ToolFileSystem, where: WorkspacePath): Promise<string | null> {
  const read = await fs.readTextFile(where, EDIT_MAX_BYTES);
  switch (read.kind) {
    case "missing":
      return null;
    case "directory":
      throw new Error(`Path is a directory, not a file: ${where.real}`);
    case "binary":
      throw new Error(`Cannot edit binary file: ${where.real}`);
    case "text":
      return read.text;
  }
}

/** edit over `fs` (the disk by default, or a host's file system: the edit applies to what the host has). */
export function createEditTool(fs: ToolFileSystem = localFileSystem): Tool {
  return {
    name: BuiltinToolName.edit,
    description:
      "Replaces exact text within a workspace file. By default old_string must occur exactly once; set " +
      "replace_all to replace every occurrence. Read the file first and copy old_string exactly, with enough " +
      "surrounding context to be unique. An empty old_string creates a new file containing new_string.",
    get parameters() {
      return params.jsonSchema;
    },
    confirmation: "edit",
    restoreClass: BUILTIN_RESTORE_CLASS[BuiltinToolName.edit],
    validate: params.validate,
    describe(args, ctx) {
      const target = previewPath(args.file_path, ctx);
      const oldString = typeof args.old_string === "string" ? args.old_string : "";
      const newString = typeof args.new_string === "string" ? args.new_string : "";
      const current = currentTextForPreview(target, ctx);
      const applied = applyEdit(current, {
        filePath: target,
        oldString,
        newString,
        replaceAll: args.replace_all === true,
      });
      // When the edit cannot apply (or there is no workspace to read from), show the snippets themselves.
      const diff =
        "error" in applied
          ? { path: target, oldText: oldString, newText: newString }
          : { path: target, oldText: current, newText: applied.content };
      return { title: `Edit ${target}`, uiKind: "edit", locations: [{ path: target }], diff };
    },
    async execute(args, ctx) {
      try {
        const p = params.parse(args);
        const where = await resolveWorkspacePath(ctx.cwd, p.file_path);
        const current = await readIfExists(fs, where);
        const applied = applyEdit(current, {
          filePath: where.display,
          oldString: p.old_string,
          newString: p.new_string,
          replaceAll: p.replace_all === true,
        });
        if ("error" in applied) return { error: applied.error };
        if (applied.isNewFile) await mkdir(path.dirname(where.real), { recursive: true });
        await fs.writeTextFile(where, applied.content);
        return {
          output: applied.isNewFile
            ? `Created new file: ${where.display} with provided content.`
            : `The file: ${where.display} has been updated (${applied.occurrences} replacement${applied.occurrences === 1 ? "" : "s"}).`,
        };
      } catch (error) {
        return { error: errorText(error) };
      }
    },
  };
}

export const editTool: Tool = createEditTool();
