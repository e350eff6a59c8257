// Append-only JSONL writer. Every record is one complete line written by one write call, appends run one
// at a time in call order (an internal promise chain), and `durable` appends are fsynced before they resolve:
// a record the user may have seen (a question's functionCall, a user message, a tool result) must survive a
// crash of the whole machine, not only of the process.
// One writer per file at a time (the session that owns it): the writer checks how the file ends only when it
// opens it, so bytes appended by someone else meanwhile are not accounted for.
import { dirname } from "node:path";
import { type DurableFile, DurableFs } from "../durable-fs.js";

export interface AppendOptions {
  /** fsync before resolving (the record survives a power loss once the promise resolves). */
  durable?: boolean;
}

export interface TranscriptWriterOptions {
  /** Mode of a newly created file (default 0o600: transcripts hold private conversations). */
  fileMode?: number;
  /** Mode of newly created directories (default 0o700). */
  dirMode?: number;
  /** The first write waits for this (a replacement of the file still being written); its failure is ignored. */
  after?: Promise<unknown>;
  /** Called after each fsync a durable append made, before the append resolves (tests observe durability). */
  onSync?: (path: string) => void;
  /** The file-system steps (one per process, so a recorder sees them all); a plain DurableFs by default. */
  fs?: DurableFs;
  /** The storage's root: folders between it and the file are made durable (default: the file's folder). */
  root?: string;
  /**
   * Every append is durable, whatever its own options say, and each is made so by its one write (the file
   * is opened O_DSYNC): a vote's answer waits for one system call instead of a write and an fdatasync.
   */
  everyAppendDurable?: boolean;
}

const NEWLINE = 0x0a;

export class TranscriptWriter {
  readonly path: string;
  private readonly fileMode: number;
  private readonly dirMode: number;
  private readonly onSync: ((path: string) => void) | undefined;
  private readonly fs: DurableFs;
  private readonly root: string;
  private readonly everyAppendDurable: boolean;
  private handle: DurableFile | undefined;
  /** Orders writes; never rejects (each append's own promise carries its error to its caller). */
  private tail: Promise<void>;
  /**
   * Set when the file may not end in a newline: an existing file with a torn last line, or a write of ours
   * that failed part way. The next record then starts with "\n" so it lands on a line of its own and the
   * fragment stays one corrupt line the reader skips, instead of gluing onto (and corrupting) our record.
   */
  private needsLeadingNewline = false;
  private closing: Promise<void> | undefined;

  constructor(path: string, options: TranscriptWriterOptions = {}) {
    this.path = path;
    this.fileMode = options.fileMode ?? 0o600;
    this.dirMode = options.dirMode ?? 0o700;
    this.onSync = options.onSync;
    this.fs = options.fs ?? new DurableFs();
    this.root = options.root ?? dirname(path);
    this.everyAppendDurable = options.everyAppendDurable === true;
    this.tail = (options.after ?? Promise.resolve()).then(
      () => undefined,
      () => undefined,
    );
  }

  /**
   * Appends `JSON.stringify(record) + "\n"`. The record is serialized now (later mutation of the object does
   * not change what is written); the write happens after every earlier append has finished.
   */
  append(record: unknown, options: AppendOptions = {}): Promise<void> {
    if (this.closing) return Promise.reject(new Error(`TranscriptWriter for ${this.path} is closed`));
    let line: string;
    try {
      line = `${JSON.stringify(record)}\n`;
    } catch (error) {
      return Promise.reject(error);
    }
    if (line === "undefined\n") return Promise.reject(new TypeError("A transcript record must be JSON"));
    const durable = options.durable === true || this.everyAppendDurable;
    const run = this.tail.then(() => this.writeLine(line, durable));
    // The chain only orders writes: the caller receives this append's failure through `run`, and the
    // next append must still run (it starts on a fresh line, see needsLeadingNewline).
    this.tail = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** Waits for pending appends, then closes the file. Safe to call more than once. */
  close(): Promise<void> {
    this.closing ??= this.tail.then(async () => {
      const handle = this.handle;
      this.handle = undefined;
      await handle?.close();
    });
    return this.closing;
  }

  private async writeLine(line: string, durable: boolean): Promise<void> {
    const handle = this.handle ?? (await this.openFile());
    const text = this.needsLeadingNewline ? `\n${line}` : line;
    const bytes = Buffer.from(text, "utf8");
    this.needsLeadingNewline = true;
    await handle.append(bytes);
    this.needsLeadingNewline = false;
    if (durable) {
      if (!handle.syncsEachWrite) await handle.sync();
      this.onSync?.(this.path);
    }
  }

  private async openFile(): Promise<DurableFile> {
    // A new file's name (and every folder made for it) is durable before the first record is written.
    const handle = await this.fs.openAppend(this.path, {
      root: this.root,
      fileMode: this.fileMode,
      dirMode: this.dirMode,
      syncEachWrite: this.everyAppendDurable,
    });
    try {
      this.needsLeadingNewline = !(await handle.endsWith(NEWLINE));
    } catch (error) {
      await handle.close();
      throw error;
    }
    this.handle = handle;
    return handle;
  }
}
