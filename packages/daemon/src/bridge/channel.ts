// The transport to one ACP child: a pair of byte streams plus process control. Injected as a factory so
// tests can use an in-memory pair with a scripted agent instead of a real process.

export type ChildExit = {
  code: number | null;
  signal: string | null;
  /** Set when the process could not be started (e.g. ENOENT) or its pipes failed. */
  error?: string;
};

export interface ChildChannel {
  /** OS process id, when there is a process. */
  readonly pid: number | undefined;
  /** Bytes to the child (its stdin). */
  readonly input: WritableStream<Uint8Array>;
  /** Bytes from the child (its stdout): NDJSON protocol frames only. */
  readonly output: ReadableStream<Uint8Array>;
  /** The child's diagnostics (its stderr), forwarded line by line to the daemon log. */
  readonly stderr: ReadableStream<Uint8Array> | undefined;
  /** Settles once when the child is gone, however it went. Never rejects. */
  readonly exited: Promise<ChildExit>;
  /** Sends `signal` to the child's whole process tree (its process group). */
  kill(signal: NodeJS.Signals): void;
}

export type ChannelSpec = {
  /** The workspace the child serves (its cwd). */
  workspace: string;
};

export type ChannelFactory = (spec: ChannelSpec) => ChildChannel;
