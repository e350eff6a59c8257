// `qwen -p "<prompt>"` / `qwen "<prompt>"`: one headless turn streamed to stdout.
// Nobody can answer questions here, so ask_user_question is not offered, and tools that need a
// confirmation are refused unless the approval mode allows them (e.g. --approval-mode yolo).
import { randomUUID } from "node:crypto";
import type { ApprovalMode } from "@qwen-daemon/core";

export interface HeadlessOptions {
  prompt: string;
  approvalMode: ApprovalMode;
  cwd: string;
}

export async function runHeadless(
  opts: HeadlessOptions,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const core = await import("./headless-core.js");
  const qwenHome = core.resolveQwenHome(env);
  const provider = core.createModelProvider(core.resolveModelConfig({ env, qwenHome }));
  const config = new core.Config({ approvalMode: opts.approvalMode });
  const tools = new core.ToolRegistry(core.createBuiltinTools({ includeAskUserQuestion: false }));
  const controller = new AbortController();
  process.once("SIGINT", () => controller.abort());
  let lastWasText = false;
  const session = await core.AgentSession.create({
    sessionId: randomUUID(),
    cwd: opts.cwd,
    storage: core.openSessionStorage(qwenHome),
    provider,
    config,
    tools,
    onEvent: (e) => {
      if (e.type === "model_text") {
        process.stdout.write(e.text);
        lastWasText = true;
      } else if (e.type === "tool_call" && e.status === "pending") {
        // End the model's line on stdout, so the next reply starts on a line of its own there too.
        if (lastWasText) process.stdout.write("\n");
        process.stderr.write(`[tool] ${e.description.title}\n`);
        lastWasText = false;
      }
    },
    // Only reached when the approval mode says "ask": there is no one to ask.
    confirm: async () => ({ outcome: "rejected" }),
  });
  try {
    const { stopReason } = await session.prompt([{ text: opts.prompt }], {
      promptId: randomUUID(),
      signal: controller.signal,
    });
    if (lastWasText) process.stdout.write("\n");
    return stopReason === "end_turn" ? 0 : 1;
  } finally {
    await session.close();
  }
}
