// Where the file tools read and write text: this machine's disk by default, or a host's file system (an ACP
// client's editor buffers). Confinement is not the backend's job: the tools resolve and check every path with
// resolveWorkspacePath before a backend sees it, so every backend is exactly as strict as the local one.
import { stat, writeFile } from "node:fs/promises";
import { readTextFile } from "./text-file.js";
import type { WorkspacePath } from "./workspace-path.js";

/** What is at a path, as read_file and edit need to know it. */
export type TextFileRead =
  | { kind: "text"; text: string }
  | { kind: "binary" }
  | { kind: "missing" }
  | { kind: "directory" };

export interface ToolFileSystem {
  /** Reads a whole text file; throws (with a message for the model) when it is over `maxBytes`. */
  readTextFile(where: WorkspacePath, maxBytes: number): Promise<TextFileRead>;
  /** Creates or replaces the file; its parent directory exists already. */
  writeTextFile(where: WorkspacePath, content: string): Promise<void>;
}

/** The disk of this machine, through the resolved (symlink-free) path. */
export const localFileSystem: ToolFileSystem = {
  async readTextFile(where, maxBytes) {
    try {
      if ((await stat(where.real)).isDirectory()) return { kind: "directory" };
      const text = await readTextFile(where.real, maxBytes);
      return text === undefined ? { kind: "binary" } : { kind: "text", text };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return { kind: "missing" };
      throw error;
    }
  },
  async writeTextFile(where, content) {
    await writeFile(where.real, content, "utf8");
  },
};
