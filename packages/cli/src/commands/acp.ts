// `qwen --acp`: an ACP agent on stdio. stdout carries protocol frames only; everything else goes to stderr.
// bin.ts imports this module lazily, so the agent is imported statically here: one chunk hop, not two.
import { runAcpAgent } from "@qwen-daemon/acp-child";
import { effectiveRestoreSwitches } from "@qwen-daemon/core/restore-kinds";
import type { AgentModeFlags } from "../acp-args.js";

export async function runAcp(flags: AgentModeFlags): Promise<void> {
  await runAcpAgent({
    input: process.stdin,
    output: process.stdout,
    env: process.env,
    handleSignals: true,
    options: {
      ...effectiveRestoreSwitches(flags.acp, flags),
      experimentalLsp: flags.experimentalLsp,
      ...(flags.storage !== undefined ? { storage: flags.storage } : {}),
    },
  });
  // Every session is closed and its records written; after a signal stdin may still be open and would
  // keep the process alive.
  process.exit(0);
}
