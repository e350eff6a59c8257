// The file-system operations a durable write makes, as records: what DurableFs reports to its recorder and
// what the power-loss model (testing/power-loss-model.ts) replays. One line of JSON per operation, written
// right after the operation returned and before the writer goes on, so the order of the lines respects what
// each process did after what (a record another process reacted to is always before that reaction's).
// Production leaves it off; `QWEN_FS_OP_LOG=<file>` in the environment of the daemon and its agents turns it
// on (the e2e power-loss story), and every process appends to that one file.
import { closeSync, openSync, writeSync } from "node:fs";
import { z } from "zod";

export const FsOp = z.discriminatedUnion("op", [
  /** A folder made (one record per level `mkdir -p` made). */
  z.object({ op: z.literal("mkdir"), path: z.string() }),
  /** A new, empty file. */
  z.object({ op: z.literal("create"), path: z.string() }),
  /** Bytes added at the end of the file (every durable file is append-only or written once). */
  z.object({ op: z.literal("append"), path: z.string(), base64: z.string() }),
  /** The file's bytes flushed to the disk (fsync or fdatasync). */
  z.object({ op: z.literal("fsync"), path: z.string() }),
  /** A folder's entries flushed to the disk (names created, renamed or removed in it). */
  z.object({ op: z.literal("fsyncDir"), path: z.string() }),
  z.object({ op: z.literal("rename"), from: z.string(), to: z.string() }),
  z.object({ op: z.literal("unlink"), path: z.string() }),
]);
export type FsOp = z.infer<typeof FsOp>;

/** Where DurableFs reports each operation once it has returned. */
export interface FsOpRecorder {
  record(op: FsOp): void;
}

/** The environment variable that names the op log (off when unset or empty). */
export const FS_OP_LOG_ENV = "QWEN_FS_OP_LOG";

/**
 * Appends each operation to `path` as one line with one write (O_APPEND: lines of several processes never
 * interleave). Synchronous on purpose: the line is in the log before the caller's next step can run.
 */
export function fileOpRecorder(path: string): FsOpRecorder & { close(): void } {
  const fd = openSync(path, "a", 0o600);
  return {
    record: (op) => {
      writeSync(fd, `${JSON.stringify({ ...op, pid: process.pid })}\n`);
    },
    close: () => closeSync(fd),
  };
}

/** The operations of an op log's text, in order; a line that is not an operation is an error (the log is ours). */
export function parseFsOpLog(text: string): FsOp[] {
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line, index) => {
      const parsed = FsOp.safeParse(JSON.parse(line));
      if (!parsed.success) throw new Error(`op log line ${index + 1} is not an operation: ${line}`);
      return parsed.data;
    });
}
