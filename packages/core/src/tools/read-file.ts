// read_file: text content of one workspace file, paged by line (reference parameter names and texts).
import { z } from "zod";
import { previewPath } from "./call-preview.js";
import { localFileSystem, type ToolFileSystem } from "./file-system.js";
import { splitLines } from "./text-file.js";
import type { Tool } from "./tool.js";
import { BUILTIN_RESTORE_CLASS, BuiltinToolName } from "./tool-names.js";
import { defineToolParams, errorText } from "./tool-params.js";
import { resolveWorkspacePath } from "./workspace-path.js";

export const READ_FILE_MAX_BYTES = 10 * 1024 * 1024;
export const READ_FILE_DEFAULT_LINES = 2000;
export const READ_FILE_MAX_LINE_CHARS = 2000;
/** Whole-output cap, so one call cannot flood the model's context even with long lines. */
export const READ_FILE_MAX_OUTPUT_CHARS = 256 * 1024;

const ReadFileParams = z.object({
  file_path: z
    .string()
    .min(1)
    .optional()
    .describe("Path of the file to read, absolute or relative to the workspace root."),
  absolute_path: z.string().min(1).optional().describe("Alias of file_path, accepted for older callers."),
  offset: z
    .number()
    .int()
    .min(0)
    .nullish()
    .describe(
      "Optional: the 0-based line number to start reading from. Use with 'limit' to page through large files.",
    ),
  limit: z
    .number()
    .int()
    .min(1)
    .nullish()
    .describe(`Optional: maximum number of lines to read (default ${READ_FILE_DEFAULT_LINES}).`),
});
type ReadFileParams = z.infer<typeof ReadFileParams>;

const params = defineToolParams(ReadFileParams, (p) =>
  p.file_path === undefined && p.absolute_path === undefined
    ? "The 'file_path' parameter must be non-empty."
    : undefined,
);

const targetOf = (p: ReadFileParams): string => p.file_path ?? p.absolute_path ?? "";

/** Pure: the page of `text` that read_file returns. */
export function renderFilePage(
  text: string,
  offset: number,
  limit: number,
): { output: string } | { error: string } {
  const lines = splitLines(text);
  if (lines.length === 0) return { output: "" };
  if (offset >= lines.length) {
    return { error: `Offset ${offset} is beyond the end of the file (${lines.length} lines).` };
  }
  const out: string[] = [];
  let chars = 0;
  let cutLines = false;
  let end = offset;
  for (; end < lines.length && end < offset + limit; end++) {
    let line = lines[end] ?? "";
    if (line.length > READ_FILE_MAX_LINE_CHARS) {
      line = `${line.slice(0, READ_FILE_MAX_LINE_CHARS)}... [line truncated]`;
      cutLines = true;
    }
    if (out.length > 0 && chars + line.length + 1 > READ_FILE_MAX_OUTPUT_CHARS) break;
    out.push(line);
    chars += line.length + 1;
  }
  const content = out.join("\n");
  if (offset === 0 && end === lines.length && !cutLines) return { output: content };
  return {
    output: `Showing lines ${offset + 1}-${end} of ${lines.length} total lines.\n\n---\n\n${content}`,
  };
}

/** read_file over `fs` (the disk by default, or a host's file system such as an editor's buffers). */
export function createReadFileTool(fs: ToolFileSystem = localFileSystem): Tool {
  return {
    name: BuiltinToolName.readFile,
    description:
      "Reads and returns the text content of a file in the workspace. The path may be absolute or relative to the " +
      "workspace root. Large files are truncated; the response then says which lines it shows, and 'offset' and " +
      "'limit' read further. Binary files are not displayed.",
    get parameters() {
      return params.jsonSchema;
    },
    confirmation: "none",
    restoreClass: BUILTIN_RESTORE_CLASS[BuiltinToolName.readFile],
    validate: params.validate,
    describe(args, ctx) {
      const target = previewPath(args.file_path ?? args.absolute_path, ctx);
      return { title: `Read ${target}`, uiKind: "read", locations: [{ path: target }] };
    },
    async execute(args, ctx) {
      try {
        const p = params.parse(args);
        const where = await resolveWorkspacePath(ctx.cwd, targetOf(p));
        const read = await fs.readTextFile(where, READ_FILE_MAX_BYTES);
        switch (read.kind) {
          case "missing":
            return { error: `File not found: ${where.display}` };
          case "directory":
            return { error: `Path is a directory, not a file: ${where.display}` };
          case "binary":
            return { error: `Cannot display content of binary file: ${where.display}` };
          case "text":
            return renderFilePage(read.text, p.offset ?? 0, p.limit ?? READ_FILE_DEFAULT_LINES);
        }
      } catch (error) {
        return { error: errorText(error) };
      }
    },
  };
}

export const readFileTool: Tool = createReadFileTool();
