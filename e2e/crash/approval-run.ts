// One run of the approval crash suite (`--restore-pending-approvals`): a session whose model asks to run a tool
// with a counted side effect, driven to a kill point between "approval shown" and "tool finished", the daemon
// and its ACP child SIGKILLed together, then a restarted daemon, a load with the client id, the re-asked
// approval answered (approved or rejected, as the scenario says; an approval acknowledged before the crash must
// be answered by the daemon's journal, not asked again), one more prompt, and the facts collected for the judge:
// what the transcript held at the kill (a start record? the tool's result?), the effect count then and at the
// end, what the model was told, and every request the fake model refused (its tool-call pairing check).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeOpenAIServer } from "@qwen-daemon/core/testing";
import type { E2eEnv } from "../harness/e2e-env.js";
import { toolResultText } from "../harness/model-requests.js";
import { vote } from "../harness/session-api.js";
import { readTranscript } from "../harness/session-files.js";
import type { SseFrame } from "../harness/sse-client.js";
import { dataOf } from "../harness/sse-views.js";
import { JOURNAL_GRACE_MS, StoryDriver } from "./story-driver.js";

export const APPROVALS_SWITCH = ["--restore-pending-approvals"];

export const ALLOW = { outcome: { outcome: "selected", optionId: "proceed_once" } } as const;
export const REJECT = { outcome: { outcome: "selected", optionId: "cancel" } } as const;

/** What the transcript held for the call when everything was killed. */
export type DiskAtKill = "nothing" | "started" | "result";

export interface ApprovalRunFacts {
  disk: DiskAtKill;
  /** An approval (or refusal) got its 200 before the kill. */
  acknowledged: "approved" | "rejected" | undefined;
  /** The effect count right after the kill and at the very end. */
  effectsAtKill: number;
  effectsAtEnd: number;
  /** How often a person was asked after the restart. */
  reAsked: number;
  /** The tool result the model got for the call in the final request. */
  resultSent: string | undefined;
  violations: string[];
}

export class ApprovalRun extends StoryDriver {
  acknowledged: "approved" | "rejected" | undefined;
  readonly #countEffects: () => number;
  #effectsAtKill = 0;
  #disk: DiskAtKill = "nothing";
  #callId: string | undefined;

  constructor(env: E2eEnv, server: FakeOpenAIServer, countEffects: () => number) {
    super(env, server, APPROVALS_SWITCH);
    this.#countEffects = countEffects;
  }

  /** The approval request frame (already seen or future). */
  approvalShown(): Promise<SseFrame> {
    return this.requireEvents().waitFor(
      (f) => f.event === "permission_request",
      20_000,
      "a permission_request",
    );
  }

  /** Votes on the approval frame; remembers a 200. */
  async answer(frame: SseFrame, body: typeof ALLOW | typeof REJECT): Promise<void> {
    const { requestId } = dataOf<{ requestId: string }>(frame);
    const res = await vote(this.daemon, this.sessionId, requestId, this.clientId, body);
    if (res.status !== 200) throw new Error(`vote: HTTP ${res.status}`);
    this.acknowledged = body === ALLOW ? "approved" : "rejected";
  }

  /** After the kill: what the files say, then a new daemon and a load with the client id. */
  async recover(): Promise<void> {
    await this.reopenAfterCrash(() => {
      this.#effectsAtKill = this.#countEffects();
      this.#readDisk();
    });
  }

  /**
   * Answers what waits until the session is at rest: `onReAsk` for an approval a person must answer; one whose
   * answer was acknowledged before the crash must be answered by the journal within a grace period.
   */
  async settle(onReAsk: typeof ALLOW | typeof REJECT, violations: string[]): Promise<number> {
    let reAsked = 0;
    const answered = new Set<string>();
    const since = new Map<string, number>();
    await this.untilAtRest(async (status) => {
      for (const interaction of status.pendingInteractions) {
        const { requestId } = interaction;
        if (answered.has(requestId)) continue;
        if (this.acknowledged !== undefined) {
          const first = since.get(requestId) ?? Date.now();
          since.set(requestId, first);
          if (Date.now() - first < JOURNAL_GRACE_MS) continue;
          violations.push(`approval asked twice: its answer was acknowledged, yet ${requestId} waits again`);
        }
        answered.add(requestId);
        reAsked++;
        const res = await vote(this.daemon, this.sessionId, requestId, this.clientId, onReAsk);
        if (res.status !== 200) violations.push(`vote on the re-asked approval: HTTP ${res.status}`);
      }
    });
    return reAsked;
  }

  /** One more prompt on the recovered session, then the facts. */
  async finish(finalText: string, onReAsk: typeof ALLOW | typeof REJECT): Promise<ApprovalRunFacts> {
    const violations: string[] = [];
    const reAsked = await this.settle(onReAsk, violations);
    await this.turnComplete(await this.prompt(finalText));
    violations.push(...this.invalidHistory());
    const final = this.server.requests.at(-1);
    const callId = this.#callId;
    return {
      disk: this.#disk,
      acknowledged: this.acknowledged,
      effectsAtKill: this.#effectsAtKill,
      effectsAtEnd: this.#countEffects(),
      reAsked,
      resultSent: final === undefined || callId === undefined ? undefined : toolResultText(final, callId),
      violations,
    };
  }

  /** The tool call's state in the transcript as the kill left it. */
  #readDisk(): void {
    type Line = {
      type: string;
      subtype?: string;
      data?: { callId?: string };
      message?: { parts: { functionCall?: { id?: string }; functionResponse?: { id?: string } }[] };
    };
    const records = readTranscript(this.env.qwenHome, this.env.workspace, this.sessionId) as Line[];
    const call = records
      .flatMap((r) =>
        (r.message?.parts ?? []).flatMap((p) => (p.functionCall?.id ? [p.functionCall.id] : [])),
      )
      .at(-1);
    this.#callId = call;
    if (call === undefined) return;
    const result = records.some((r) => (r.message?.parts ?? []).some((p) => p.functionResponse?.id === call));
    const started = records.some(
      (r) => r.type === "system" && r.subtype === "tool_started" && r.data?.callId === call,
    );
    this.#disk = result ? "result" : started ? "started" : "nothing";
  }
}

/** Lines of a workspace file (0 when it does not exist). */
export function linesOf(workspace: string, name: string, line: string): number {
  const path = join(workspace, name);
  if (!existsSync(path)) return 0;
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l === line).length;
}
