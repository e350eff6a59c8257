// Line-level reading of append-only JSONL files (transcripts and ledgers), forwards and backwards, in bounded
// memory. A final segment without its newline is what a crash mid-write leaves: it is reported as a torn
// tail when it does not parse, never thrown. Corrupt lines elsewhere are counted and skipped.
import { type FileHandle, open } from "node:fs/promises";

const NEWLINE = 0x0a;

/** Return `false` to stop reading. `terminated` is false only for a final line that has no "\n". */
export type LineVisitor = (line: string, terminated: boolean) => boolean | undefined;

export interface JsonlReadResult<T> {
  items: T[];
  /** Complete lines that were not JSON or did not match the expected shape. */
  corruptLines: number;
  /** The file ended in an unparseable line without its newline (a write cut short by a crash). */
  tornTail: boolean;
}

/** Maps a parsed JSON value to an item, or `undefined` when it does not have the expected shape. */
export type JsonlDecoder<T> = (value: unknown) => T | undefined;

/** Visits the lines of a file from first to last, reading `chunkBytes` (default 1 MiB) at a time. */
export async function forEachLine(path: string, visit: LineVisitor, chunkBytes = 1 << 20): Promise<void> {
  const handle = await open(path, "r");
  try {
    const chunk = Buffer.allocUnsafe(chunkBytes);
    let carry: Buffer[] = [];
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunkBytes, null);
      if (bytesRead === 0) break;
      const data = bytesRead < chunkBytes ? chunk.subarray(0, bytesRead) : chunk;
      let start = 0;
      for (let end = data.indexOf(NEWLINE, start); end !== -1; end = data.indexOf(NEWLINE, start)) {
        let line: string;
        if (carry.length > 0) {
          carry.push(data.subarray(start, end));
          line = Buffer.concat(carry).toString("utf8");
          carry = [];
        } else {
          line = data.toString("utf8", start, end);
        }
        if (visit(line, true) === false) return;
        start = end + 1;
      }
      // The chunk buffer is reused, so a partial line is copied out.
      if (start < data.length) carry.push(Buffer.from(data.subarray(start)));
    }
    if (carry.length > 0) visit(Buffer.concat(carry).toString("utf8"), false);
  } finally {
    await handle.close();
  }
}

/** Visits the lines of a file from last to first, reading backwards `blockBytes` (default 64 KiB) at a time. */
export async function forEachLineReverse(
  path: string,
  visit: LineVisitor,
  blockBytes = 64 * 1024,
): Promise<void> {
  const handle = await open(path, "r");
  try {
    await visitReverse(handle, visit, blockBytes);
  } finally {
    await handle.close();
  }
}

async function visitReverse(handle: FileHandle, visit: LineVisitor, blockBytes: number): Promise<void> {
  let position = (await handle.stat()).size;
  // The end of the line being assembled, in file order: blocks read after its last newline. They hold no
  // newline, so only each new block is searched and a long line is copied once, when it is complete.
  let pieces: Buffer[] = [];
  let terminated: boolean | undefined;
  while (position > 0) {
    const length = Math.min(blockBytes, position);
    position -= length;
    const block = Buffer.allocUnsafe(length);
    await readFully(handle, block, position);
    let end = block.length;
    if (terminated === undefined) {
      // The very end of the file: a trailing newline ends the last line; without one it may be torn.
      terminated = block[end - 1] === NEWLINE;
      if (terminated) end--;
    }
    while (end > 0) {
      const newline = block.lastIndexOf(NEWLINE, end - 1);
      if (newline === -1) break;
      const line =
        pieces.length > 0
          ? Buffer.concat([block.subarray(newline + 1, end), ...pieces]).toString("utf8")
          : block.toString("utf8", newline + 1, end);
      pieces = [];
      if (visit(line, terminated) === false) return;
      terminated = true;
      end = newline;
    }
    // A fresh block per read, so keeping a view of it is safe.
    if (end > 0) pieces.unshift(block.subarray(0, end));
  }
  // The first line of the file (also its torn last line when the file has a single line).
  if (terminated !== undefined) visit(Buffer.concat(pieces).toString("utf8"), terminated);
}

async function readFully(handle: FileHandle, target: Buffer, position: number): Promise<void> {
  let offset = 0;
  while (offset < target.length) {
    const { bytesRead } = await handle.read(target, offset, target.length - offset, position + offset);
    if (bytesRead === 0) throw new Error("File shrank while it was being read");
    offset += bytesRead;
  }
}

/**
 * Classifies one line: blank lines are ignored, an unparseable unterminated line is a torn tail, anything
 * else that does not decode is corrupt. Shared by the forward and backward readers.
 */
export class JsonlAccumulator<T> {
  readonly items: T[] = [];
  corruptLines = 0;
  tornTail = false;

  constructor(private readonly decode: JsonlDecoder<T>) {}

  /** Returns the decoded item, or undefined when the line was blank, torn or corrupt. */
  add(line: string, terminated: boolean): T | undefined {
    if (isBlank(line)) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      // Not JSON: a write cut short when it is the unterminated last line, damage anywhere else.
      if (terminated) this.corruptLines++;
      else this.tornTail = true;
      return undefined;
    }
    const item = this.decode(value);
    if (item === undefined) {
      this.corruptLines++;
      return undefined;
    }
    this.items.push(item);
    return item;
  }

  result(): JsonlReadResult<T> {
    return { items: this.items, corruptLines: this.corruptLines, tornTail: this.tornTail };
  }
}

function isBlank(line: string): boolean {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}

/** Reads a whole JSONL file. A missing file rejects with the fs error (ENOENT); callers map it. */
export async function readJsonlFile<T>(path: string, decode: JsonlDecoder<T>): Promise<JsonlReadResult<T>> {
  const acc = new JsonlAccumulator(decode);
  await forEachLine(path, (line, terminated) => {
    acc.add(line, terminated);
    return undefined;
  });
  return acc.result();
}

/** Reads the last `count` decodable items of a JSONL file (in file order) without reading the rest. */
export async function readJsonlTail<T>(
  path: string,
  count: number,
  decode: JsonlDecoder<T>,
): Promise<JsonlReadResult<T>> {
  const acc = new JsonlAccumulator(decode);
  if (count > 0) {
    await forEachLineReverse(path, (line, terminated) => {
      acc.add(line, terminated);
      return acc.items.length < count;
    });
  }
  const result = acc.result();
  result.items.reverse();
  return result;
}
