// The child's own switches. The cli parses its flags and passes these options; `parseAcpArgv` serves the
// package's own bin (tests, `QWEN_CLI_ENTRY`) with the same gating rule as the cli. The restore switches and
// their flags are the rows of the contract's restore-kind table.
import {
  RESTORE_FLAGS,
  RESTORE_KINDS,
  type RestoreSwitches,
  restoreSwitchesFromArgv,
} from "@qwen-daemon/core/protocol";

/** The restore switches (docs/restore.md), one per row of the restore-kind table, each false by default. */
export interface AcpChildOptions extends RestoreSwitches {
  /** Accepted and forwarded by the daemon; this child has no LSP features yet, so it only records it. */
  experimentalLsp: boolean;
  /**
   * `--storage <url>` (docs/storage.md): where sessions are stored when no daemon says so through the
   * environment (QWEN_STORAGE_URL, which a daemon sets for its agents). Default: JSONL under QWEN_HOME.
   */
  storage?: string;
}

export const DEFAULT_ACP_CHILD_OPTIONS: AcpChildOptions = {
  ...restoreSwitchesFromArgv([]),
  experimentalLsp: false,
};

export type ParsedAcpArgv =
  | { kind: "ok"; options: AcpChildOptions }
  | { kind: "help" }
  | { kind: "version" }
  | { kind: "error"; message: string };

const KNOWN_FLAGS = new Set(["--acp", ...RESTORE_FLAGS, "--experimental-lsp"]);

/** One option of the help: the flag in a column, the text wrapped beside it. */
function helpLine(flag: string, text: string): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > 72) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines.map((l, i) => `  ${(i === 0 ? flag : "").padEnd(31)}${l}`).join("\n");
}

/** What `qwen-acp --help` prints (the restore options from the contract's restore-kind table). */
export const ACP_USAGE = `Usage: qwen-acp --acp ${RESTORE_FLAGS.map((f) => `[${f}]`).join(" ")} [--experimental-lsp] [--storage <url>]

An Agent Client Protocol agent on stdio: JSON-RPC 2.0 messages, one per line, in on stdin and out on stdout
(diagnostics go to stderr). An ACP client (an editor, or qwen serve) starts it and talks to it.

Options:
  --acp                          run as an ACP agent (required: it is the only mode of this program)
${RESTORE_KINDS.map((kind) => helpLine(kind.flag, kind.agentHelp)).join("\n")}
  --experimental-lsp             accepted and recorded (no LSP features yet)
${helpLine("--storage <url>", "where sessions are stored: postgres://... or a folder (JSONL files); prefer QWEN_STORAGE_URL when the URL holds a password")}
  -h, --help                     print this help
  -v, --version                  print the version

Environment:
  OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL   an OpenAI-compatible model (else the built-in demo model)
  QWEN_HOME                                        where sessions are stored (default ~/.qwen)
  QWEN_STORAGE_URL                                 the same as --storage (docs/storage.md)
`;

/**
 * Parses `--acp [restore flags] [--experimental-lsp] [--storage <url>]`, the flags `qwen --acp` takes. The
 * restore switches mean something only together with `--acp` (a run without the ACP channel has nobody to
 * re-ask, and skipping repair there would wedge the session), so without `--acp` it is an error here rather
 * than silently ignored.
 */
export function parseAcpArgv(argv: readonly string[]): ParsedAcpArgv {
  if (argv.some((arg) => arg === "--help" || arg === "-h")) return { kind: "help" };
  if (argv.some((arg) => arg === "--version" || arg === "-v")) return { kind: "version" };
  const switches: string[] = [];
  let storage: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg !== "--storage" && !arg.startsWith("--storage=")) {
      switches.push(arg);
      continue;
    }
    const value = arg === "--storage" ? argv[++i] : arg.slice("--storage=".length);
    if (value === undefined || value === "" || value.startsWith("--"))
      return { kind: "error", message: "--storage needs a value: postgres://... or a folder (see --help)" };
    storage = value;
  }
  const unknown = switches.filter((arg) => !KNOWN_FLAGS.has(arg));
  if (unknown.length > 0)
    return { kind: "error", message: `unknown argument(s): ${unknown.join(" ")} (see --help)` };
  if (!switches.includes("--acp"))
    return { kind: "error", message: "this entry only runs as an ACP agent: pass --acp" };
  return {
    kind: "ok",
    options: {
      ...restoreSwitchesFromArgv(switches),
      experimentalLsp: switches.includes("--experimental-lsp"),
      ...(storage !== undefined ? { storage } : {}),
    },
  };
}
