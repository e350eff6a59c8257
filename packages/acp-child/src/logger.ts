// Diagnostics go to stderr only: stdout carries nothing but ACP frames.

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export function stderrLogger(write: (line: string) => void = (line) => process.stderr.write(line)): Logger {
  const emit = (level: string, message: string) => write(`[qwen-acp] ${level} ${message}\n`);
  return {
    info: (message) => emit("info", message),
    warn: (message) => emit("warn", message),
    error: (message) => emit("error", message),
  };
}
