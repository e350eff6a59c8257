// The full command-line parser (commander). Reached for --help, --version, headless prompts, and any
// argv the fast path does not recognise; `serve` flag values are still parsed by the shared parser.

import { RESTORE_KINDS, type RestoreSwitches } from "@qwen-daemon/core/restore-kinds";
import { defaultText, rangeText } from "@qwen-daemon/daemon/option-specs";
import { Command, InvalidArgumentError, Option } from "commander";
import pkg from "../package.json" with { type: "json" };
import { importHot } from "./code-cache/load-bundle.js";
import { parseServeArgs } from "./serve-args.js";
import { envNamesFor, type FlagSpec, SERVE_FLAGS } from "./serve-flags.js";

const APPROVAL_MODES = ["default", "auto-edit", "yolo", "plan"] as const;

export function buildProgram(argvAfterNode: readonly string[]): Command {
  const program = new Command("qwen")
    .description("A coding-agent daemon whose questions survive restarts")
    .version(pkg.version, "-v, --version")
    .argument("[prompt...]", "run one headless prompt and print the answer")
    .option("-p, --prompt <text>", "run one headless prompt and print the answer")
    .option("--acp", "run as an Agent Client Protocol agent on stdio");
  // One option per row of the restore-kind table, after --acp whose switches they are.
  for (const kind of RESTORE_KINDS) program.addOption(new Option(kind.flag, `with --acp: ${kind.agentHelp}`));
  program
    .option("--experimental-lsp", "enable experimental LSP features")
    .option(
      "--storage <url>",
      "with --acp: where sessions are stored (postgres://... or a folder; default JSONL under QWEN_HOME; docs/storage.md)",
    )
    .addOption(
      new Option(
        "--approval-mode <mode>",
        "with a headless prompt: which tool calls run without asking (an ACP client sets the mode per session)",
      ).choices(APPROVAL_MODES),
    )
    .option("-y, --yolo", "with a headless prompt: same as --approval-mode yolo")
    .showHelpAfterError()
    .action(async (words: string[], opts) => {
      if (opts.acp) {
        // As on bin.ts's fast path: the agent's hot bundle with V8's code cache when the install has it.
        const { runAcp } = await importHot(
          new URL("./hot/acp.cjs", import.meta.url),
          () => import("./commands/acp.js"),
        );
        await runAcp({
          acp: true,
          ...restoreSwitchesOf(opts),
          experimentalLsp: Boolean(opts.experimentalLsp),
          ...(typeof opts.storage === "string" ? { storage: opts.storage } : {}),
        });
        return;
      }
      const prompt = opts.prompt ?? (words.length > 0 ? words.join(" ") : undefined);
      if (!prompt) {
        program.help();
        return;
      }
      const { runHeadless } = await import("./commands/headless.js");
      process.exitCode = await runHeadless({
        prompt,
        approvalMode: opts.yolo ? "yolo" : (opts.approvalMode ?? "default"),
        cwd: process.cwd(),
      });
    });

  program
    .command("link-key")
    .description("The key that signs the answer links in notifications (docs/notifications.md)")
    .command("rotate")
    .description(
      "Replace the key: every answer link sent so far stops working at once, also in a running daemon",
    )
    .action(async () => {
      const { runRotateLinkKey } = await import("./commands/link-key.js");
      await runRotateLinkKey();
    });

  const serve = program.command("serve").description("Run the HTTP + SSE daemon");
  for (const spec of SERVE_FLAGS) {
    const flag = spec.type === "bool" ? `--${spec.flag}` : `--${spec.flag} <${valueName(spec)}>`;
    serve.addOption(new Option(flag, flagHelp(spec)));
    if (spec.type === "bool") serve.addOption(new Option(`--no-${spec.flag}`).hideHelp());
  }
  serve.action(async () => {
    // Commander has already refused unknown flags; the shared parser gives the typed, validated values.
    const index = argvAfterNode.indexOf("serve");
    const parsed = parseServeArgs(argvAfterNode.slice(index + 1), process.env);
    if (parsed.kind !== "ok") {
      throw new InvalidArgumentError(parsed.kind === "error" ? parsed.message : "unexpected arguments");
    }
    const { runServe } = await import("./commands/serve.js");
    await runServe(parsed.flags);
  });
  return program;
}

function valueName(spec: FlagSpec): string {
  if (spec.type === "list") return "value";
  if (spec.type === "choice") return "name";
  if (spec.type === "string" && spec.format === "argv-json") return "json";
  if (spec.type === "string" && spec.format === "url") return "url";
  return spec.type === "int" ? "n" : "text";
}

/** One help line from the shared table: what it does, its bounds, default and environment variables. */
export function flagHelp(spec: FlagSpec): string {
  const notes: string[] = [];
  if (spec.type === "int") {
    if (spec.zero !== undefined) notes.push(`0 = ${spec.zero}`);
    notes.push(rangeText(spec));
  }
  if (spec.type === "choice") {
    const help = spec.choiceHelp;
    const choices = spec.choices.map((c) => (help?.[c] !== undefined ? `${c} (${help[c]})` : c));
    notes.push(`one of ${choices.join(", ")}`);
  }
  const def = defaultText(spec);
  if (def !== undefined) notes.push(`default: ${def}`);
  const env = envNamesFor(spec);
  if (env.length > 0) notes.push(`env: ${env.join(", ")}`);
  return `${spec.description} (${notes.join("; ")})`;
}

export async function runProgram(argvAfterNode: readonly string[]): Promise<void> {
  await buildProgram(argvAfterNode).parseAsync([...argvAfterNode], { from: "user" });
}

/** The restore switches commander parsed (it names each option by its flag in camel case: the switch's name). */
function restoreSwitchesOf(opts: Record<string, unknown>): RestoreSwitches {
  const switches = {} as RestoreSwitches;
  for (const kind of RESTORE_KINDS) switches[kind.switch] = Boolean(opts[kind.switch]);
  return switches;
}
