// `qwen --acp`: an ACP agent on stdio. stdout carries protocol frames only; everything else goes to stderr.
import type { AgentModeFlags } from "../acp-args.js";
import { effectiveRestoreAskUserQuestion } from "../acp-args.js";

export async function runAcp(flags: AgentModeFlags): Promise<void> {
  const { runAcpAgent } = await import("@qwen-daemon/acp-child");
  await runAcpAgent({
    input: process.stdin,
    output: process.stdout,
    env: process.env,
    options: {
      restoreAskUserQuestion: effectiveRestoreAskUserQuestion(flags),
      experimentalLsp: flags.experimentalLsp,
    },
  });
}
