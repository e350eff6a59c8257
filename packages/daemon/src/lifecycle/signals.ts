// SIGINT / SIGTERM handling for `qwen serve`: the first signal shuts down gracefully, a second one
// exits at once (after SIGKILLing the children so nothing is left behind).

export type Stoppable = {
  close(): Promise<void>;
  /** Immediate stop: SIGKILL the children's process groups. */
  kill(): void;
};

export type SignalProcess = {
  on(event: NodeJS.Signals, listener: () => void): unknown;
  off(event: NodeJS.Signals, listener: () => void): unknown;
};

export type SignalHandlerOptions = {
  log?: (line: string) => void;
  exit?: (code: number) => void;
  process?: SignalProcess;
  signals?: readonly NodeJS.Signals[];
};

/** Installs the handlers; returns a function that removes them. */
export function installSignalHandlers(daemon: Stoppable, options: SignalHandlerOptions = {}): () => void {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const proc: SignalProcess = options.process ?? process;
  const signals = options.signals ?? ["SIGINT", "SIGTERM"];
  let stopping = false;
  const handlers = new Map<NodeJS.Signals, () => void>();
  for (const signal of signals) {
    const handler = () => {
      if (stopping) {
        log(`qwen serve: ${signal} again, exiting now`);
        daemon.kill();
        exit(130);
        return;
      }
      stopping = true;
      log(`qwen serve: ${signal} received, shutting down (send it again to exit at once)`);
      daemon.close().then(
        () => exit(0),
        (error: unknown) => {
          log(
            `qwen serve: shutdown failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
          );
          exit(1);
        },
      );
    };
    handlers.set(signal, handler);
    proc.on(signal, handler);
  }
  return () => {
    for (const [signal, handler] of handlers) proc.off(signal, handler);
  };
}
