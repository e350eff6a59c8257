// Every file-system step a durable write takes, in one place, so the rules that make a write survive a power
// loss (not only a crash of the process, after which the page cache still holds everything) are kept once:
// - a file's bytes count once the file is fsynced;
// - a name (a file created, a folder made, a file renamed into place or removed) counts once the folder that
//   holds it is fsynced after the change; for `mkdir -p` that is every level, up to the storage's root.
// docs/restore.md "Power loss" states the model; the e2e power-loss story checks every durable promise
// against it, from the operations this module reports to its recorder (fs-op-log.ts).
import { randomUUID } from "node:crypto";
import { constants, type FileHandle, mkdir, open, rename, rm } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { FS_OP_LOG_ENV, type FsOp, type FsOpRecorder, fileOpRecorder } from "./fs-op-log.js";

export interface DurableFileOptions {
  /**
   * The folder the storage lives in (QWEN_HOME). Folders between it and the file are made durable at
   * every level, and it too (into its parent) when this process made it.
   */
  root: string;
  /** Mode of a new file (default 0o600: the files hold private conversations). */
  fileMode?: number;
  /** Mode of new folders (default 0o700). */
  dirMode?: number;
}

export interface OpenAppendOptions extends DurableFileOptions {
  /**
   * Every write is durable when it returns (O_DSYNC): one system call instead of a write and an fdatasync,
   * for a file whose every append is durable anyway.
   */
  syncEachWrite?: boolean;
}

/** A file opened for appending; writes go to its end. */
export interface DurableFile {
  append(bytes: Uint8Array): Promise<void>;
  /** fdatasync: the bytes and the size, not mtime-only metadata. */
  sync(): Promise<void>;
  /** Opened with `syncEachWrite`: an append is durable once it resolves, so `sync` has nothing left to do. */
  readonly syncsEachWrite: boolean;
  /** Whether the file is empty or ends in `byte` (a writer's check for a torn last line). */
  endsWith(byte: number): Promise<boolean>;
  close(): Promise<void>;
}

export class DurableFs {
  /**
   * Folders whose name is known to be durable in their parent (this process fsynced the parent after the
   * folder existed, whoever made it). Folders are never removed, so the fact stays true.
   */
  readonly #durableDirs = new Set<string>();

  constructor(private readonly recorder?: FsOpRecorder) {}

  /** `mkdir -p dir`, then every level up to the root (and above, when this call made it) fsynced into its parent. */
  async ensureDirectory(dir: string, options: DurableFileOptions): Promise<void> {
    if (this.#durableDirs.has(dir)) return;
    const first = await mkdir(dir, { recursive: true, mode: options.dirMode ?? 0o700 });
    if (first !== undefined) {
      for (const level of levelsFrom(first, dir)) this.#record({ op: "mkdir", path: level });
    }
    // A level another process made a moment ago may not be durable yet: each level's parent is fsynced
    // once per process, not only the levels this call made.
    const top = first !== undefined && isInside(options.root, first) ? first : options.root;
    for (let level = dir; ; level = dirname(level)) {
      if (!this.#durableDirs.has(level)) {
        await this.syncDirectory(dirname(level));
        this.#durableDirs.add(level);
      }
      if (level === top || dirname(level) === level || !isInside(level, top)) break;
    }
  }

  /** Opens `path` for appending, creating it (and its folders) durably when it does not exist yet. */
  async openAppend(path: string, options: OpenAppendOptions): Promise<DurableFile> {
    await this.ensureDirectory(dirname(path), options);
    const dsync = options.syncEachWrite === true;
    const dsyncFlag = dsync ? constants.O_DSYNC : 0;
    let handle: FileHandle;
    try {
      handle = await open(
        path,
        constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_EXCL | dsyncFlag,
        options.fileMode ?? 0o600,
      );
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      return this.#file(path, await open(path, constants.O_RDWR | constants.O_APPEND | dsyncFlag), dsync);
    }
    this.#record({ op: "create", path });
    try {
      await this.syncDirectory(dirname(path));
    } catch (error) {
      await handle.close();
      throw error;
    }
    return this.#file(path, handle, dsync);
  }

  /** Appends `text` to `path` (created durably if missing); with `durable`, fsynced before it resolves. */
  async appendText(
    path: string,
    text: string,
    options: DurableFileOptions & { durable: boolean },
  ): Promise<void> {
    const file = await this.openAppend(path, options);
    try {
      await file.append(Buffer.from(text, "utf8"));
      if (options.durable) await file.sync();
    } finally {
      await file.close();
    }
  }

  /**
   * Replaces `path` with `text` atomically and durably: a temp file beside it is written and fsynced,
   * renamed over it, and the folder fsynced, so a power loss leaves the old file or the new one, never a mix.
   */
  async replaceFile(path: string, text: string, options: DurableFileOptions): Promise<void> {
    await this.ensureDirectory(dirname(path), options);
    const temp = `${path}.${randomUUID()}.tmp`;
    const handle = await open(
      temp,
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_EXCL,
      options.fileMode ?? 0o600,
    );
    this.#record({ op: "create", path: temp });
    const file = this.#file(temp, handle);
    try {
      await file.append(Buffer.from(text, "utf8"));
      await file.sync();
    } catch (error) {
      await file.close();
      await this.removeFile(temp);
      throw error;
    }
    await file.close();
    await rename(temp, path);
    this.#record({ op: "rename", from: temp, to: path });
    await this.syncDirectory(dirname(path));
  }

  /** Removes `path` (nothing when it is not there) and fsyncs its folder, so the removal survives too. */
  async removeFile(path: string): Promise<void> {
    try {
      await rm(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
    this.#record({ op: "unlink", path });
    await this.syncDirectory(dirname(path));
  }

  /** fsync of a folder: the names created, renamed or removed in it are on the disk. */
  async syncDirectory(dir: string): Promise<void> {
    const handle = await open(dir, constants.O_RDONLY);
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    this.#record({ op: "fsyncDir", path: dir });
  }

  #file(path: string, handle: FileHandle, syncsEachWrite = false): DurableFile {
    return {
      syncsEachWrite,
      append: async (bytes) => {
        let offset = 0;
        // One write call in practice; the loop only guards against a short write, which the OS may return.
        while (offset < bytes.length) {
          const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
          if (bytesWritten > 0) {
            this.#record({
              op: "append",
              path,
              base64: Buffer.from(bytes.subarray(offset, offset + bytesWritten)).toString("base64"),
            });
            // O_DSYNC: the write returned once its bytes were on the disk, as an fdatasync would have made them.
            if (syncsEachWrite) this.#record({ op: "fsync", path });
          }
          offset += bytesWritten;
        }
      },
      sync: async () => {
        if (!syncsEachWrite) await handle.datasync();
        this.#record({ op: "fsync", path });
      },
      endsWith: async (byte) => {
        const { size } = await handle.stat();
        if (size === 0) return true;
        const last = Buffer.alloc(1);
        await handle.read(last, 0, 1, size - 1);
        return last[0] === byte;
      },
      close: () => handle.close(),
    };
  }

  #record(op: FsOp): void {
    this.recorder?.record(op);
  }
}

/** The DurableFs of a process: recording its operations when `QWEN_FS_OP_LOG` names a file. */
export function durableFsFromEnv(env: Readonly<Record<string, string | undefined>>): DurableFs {
  const logPath = env[FS_OP_LOG_ENV];
  return logPath ? new DurableFs(fileOpRecorder(logPath)) : new DurableFs();
}

/** `first` and each folder below it down to `last` (mkdir's answer is the first folder it made). */
function levelsFrom(first: string, last: string): string[] {
  const levels = [first];
  const rest = relative(first, last);
  if (rest === "") return levels;
  let at = first;
  for (const part of rest.split("/")) {
    at = join(at, part);
    levels.push(at);
  }
  return levels;
}

/** Whether `path` is `ancestor` or below it. */
function isInside(path: string, ancestor: string): boolean {
  const rel = relative(ancestor, path);
  return rel === "" || (!rel.startsWith("..") && !rel.startsWith("/"));
}
