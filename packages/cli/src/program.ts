// The full command-line parser (commander). Reached for --help, --version, headless prompts, and any
// argv the fast path does not recognise; `serve` flag values are still parsed by the shared parser.
import { Command, InvalidArgumentError, Option } from "commander";
import pkg from "../package.json" with { type: "json" };
import { parseServeArgs } from "./serve-args.js";
import { envNameFor, SERVE_DEFAULTS, SERVE_FLAGS } from "./serve-flags.js";

const APPROVAL_MODES = ["default", "auto-edit", "yolo", "plan"] as const;

export function buildProgram(argvAfterNode: readonly string[]): Command {
  const program = new Command("qwen")
    .description("A coding-agent daemon whose questions survive restarts")
    .version(pkg.version, "-v, --version")
    .argument("[prompt...]", "run one headless prompt and print the answer")
    .option("-p, --prompt <text>", "run one headless prompt and print the answer")
    .option("--acp", "run as an Agent Client Protocol agent on stdio")
    .option("--restore-ask-user-question", "with --acp: re-ask a trailing unanswered question on load/resume")
    .option("--experimental-lsp", "enable experimental LSP features")
    .addOption(
      new Option("--approval-mode <mode>", "which tool calls run without asking").choices(APPROVAL_MODES),
    )
    .option("-y, --yolo", "same as --approval-mode yolo")
    .showHelpAfterError()
    .action(async (words: string[], opts) => {
      if (opts.acp) {
        const { runAcp } = await import("./commands/acp.js");
        await runAcp({
          acp: true,
          restoreAskUserQuestion: Boolean(opts.restoreAskUserQuestion),
          experimentalLsp: Boolean(opts.experimentalLsp),
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

  const serve = program.command("serve").description("Run the HTTP + SSE daemon");
  for (const spec of SERVE_FLAGS) {
    const env = spec.noEnv ? "" : ` [env: ${[...(spec.env ?? []), envNameFor(spec)].join(", ")}]`;
    const flag =
      spec.type === "bool"
        ? `--${spec.name}`
        : `--${spec.name} <${spec.type === "list" ? "value" : spec.type}>`;
    const option = new Option(flag, `${spec.description}${env}`);
    if (spec.choices) option.choices(spec.choices);
    const def = SERVE_DEFAULTS[spec.key];
    if (def !== undefined && spec.type !== "bool" && spec.type !== "list") option.default(def);
    serve.addOption(option);
    if (spec.type === "bool") serve.addOption(new Option(`--no-${spec.name}`).hideHelp());
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

export async function runProgram(argvAfterNode: readonly string[]): Promise<void> {
  await buildProgram(argvAfterNode).parseAsync([...argvAfterNode], { from: "user" });
}
