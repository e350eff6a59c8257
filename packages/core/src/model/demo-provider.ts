// The built-in demo model: no network, deterministic, streamed in small deltas like a real model so the
// whole pipeline (streaming UI, tool calls, permissions) is exercised out of the box.
import { abortableSleep, abortedError, type Sleep } from "./abortable-sleep.js";
import { planDemoReply } from "./demo-script.js";
import type { GenerateRequest, ModelEvent, ModelProvider } from "./provider.js";

export const DEMO_DESCRIPTION =
  "demo model (set OPENAI_BASE_URL or OPENAI_API_KEY, and OPENAI_MODEL, to use a real one)";

export interface DemoProviderOptions {
  /** Pause between text deltas (default 0: tests and e2e stay fast; the CLI may slow it down for show). */
  deltaDelayMs?: number;
  sleep?: Sleep;
}

/** Splits text into deltas of a few words each, keeping every character. */
export function demoDeltas(text: string, wordsPerDelta = 4): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [];
  const out: string[] = [];
  for (let i = 0; i < words.length; i += wordsPerDelta) out.push(words.slice(i, i + wordsPerDelta).join(""));
  return out;
}

export class DemoModelProvider implements ModelProvider {
  readonly id = "demo";
  readonly model = "demo";
  readonly isDemo = true;
  private readonly options: DemoProviderOptions;

  constructor(options: DemoProviderOptions = {}) {
    this.options = options;
  }

  describe(): string {
    return DEMO_DESCRIPTION;
  }

  async *generate(request: GenerateRequest): AsyncGenerator<ModelEvent> {
    const { signal } = request;
    const plan = planDemoReply(request);
    const delay = this.options.deltaDelayMs ?? 0;
    const sleep = this.options.sleep ?? abortableSleep;
    for (const text of demoDeltas(plan.text)) {
      if (signal?.aborted) throw abortedError();
      if (delay > 0) await sleep(delay, signal);
      yield { type: "text", text };
    }
    if (signal?.aborted) throw abortedError();
    if (plan.toolCall) yield { type: "tool_call", call: plan.toolCall };
    yield { type: "finish", reason: plan.toolCall ? "tool_calls" : "stop" };
  }
}
