// Forwards a child's stderr to the daemon log, one prefixed, capped, redacted line at a time.
import { LineSplitter } from "./line-splitter.js";
import { redactSecrets } from "./redact.js";

export const DEFAULT_MAX_STDERR_LINE = 4096;

export type StderrForwardOptions = {
  prefix: string;
  log: (line: string) => void;
  maxLineLength?: number;
  /** Literal secrets to redact besides the known shapes (e.g. the daemon token). */
  secrets?: readonly string[];
};

/** Resolves when the stream ends; a read error ends forwarding and is logged, not thrown. */
export async function forwardStderr(
  stream: ReadableStream<Uint8Array>,
  options: StderrForwardOptions,
): Promise<void> {
  const splitter = new LineSplitter(options.maxLineLength ?? DEFAULT_MAX_STDERR_LINE);
  const emit = (lines: string[]) => {
    for (const line of lines) options.log(`${options.prefix}${redactSecrets(line, options.secrets)}`);
  };
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      emit(splitter.push(value));
    }
    emit(splitter.end());
  } catch (error) {
    options.log(
      `${options.prefix}(stderr read failed: ${error instanceof Error ? error.message : String(error)})`,
    );
  } finally {
    reader.releaseLock();
  }
}
