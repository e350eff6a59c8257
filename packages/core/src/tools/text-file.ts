// Text vs binary, as read_file and grep see it: a NUL byte near the start means binary (the same
// heuristic git and ripgrep use), which keeps raw bytes out of the model's context.
import { open } from "node:fs/promises";

const SNIFF_BYTES = 8192;

export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, SNIFF_BYTES);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

/** Reads a whole file known to be at most `maxBytes`; returns undefined for binary content. */
export async function readTextFile(filePath: string, maxBytes: number): Promise<string | undefined> {
  const handle = await open(filePath, "r");
  try {
    const { size } = await handle.stat();
    if (size > maxBytes) {
      throw new Error(`File "${filePath}" is ${size} bytes, over the ${maxBytes}-byte limit for reading.`);
    }
    const bytes = await handle.readFile();
    return looksBinary(bytes) ? undefined : bytes.toString("utf8");
  } finally {
    await handle.close();
  }
}

/** Splits text into lines, treating \r\n and \n alike and ignoring the newline that ends the file. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}
