// The child's own switches. The cli parses its flags and passes these options; `parseAcpArgv` serves the
// package's own bin (tests, `QWEN_CLI_ENTRY`) with the same gating rule as the cli.

export interface AcpChildOptions {
  /** RESTORE-SPEC: re-hang a trailing unanswered ask_user_question on load/resume. Default false. */
  restoreAskUserQuestion: boolean;
  /** Accepted and forwarded by the daemon; this child has no LSP features yet, so it only records it. */
  experimentalLsp: boolean;
}

export const DEFAULT_ACP_CHILD_OPTIONS: AcpChildOptions = {
  restoreAskUserQuestion: false,
  experimentalLsp: false,
};

export type ParsedAcpArgv = { kind: "ok"; options: AcpChildOptions } | { kind: "error"; message: string };

const KNOWN_FLAGS = new Set(["--acp", "--restore-ask-user-question", "--experimental-lsp"]);

/**
 * Parses `--acp [--restore-ask-user-question] [--experimental-lsp]`. The restore switch means something only
 * together with `--acp` (a run without the ACP channel has nobody to re-ask, and skipping repair there would
 * wedge the session), so without `--acp` it is an error here rather than silently ignored.
 */
export function parseAcpArgv(argv: readonly string[]): ParsedAcpArgv {
  const unknown = argv.filter((arg) => !KNOWN_FLAGS.has(arg));
  if (unknown.length > 0) return { kind: "error", message: `unknown argument(s): ${unknown.join(" ")}` };
  if (!argv.includes("--acp"))
    return { kind: "error", message: "this entry only runs as an ACP agent: pass --acp" };
  return {
    kind: "ok",
    options: {
      restoreAskUserQuestion: argv.includes("--restore-ask-user-question"),
      experimentalLsp: argv.includes("--experimental-lsp"),
    },
  };
}
