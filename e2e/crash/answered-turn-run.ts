// One run of the answered-turn suite: a session whose model asks a question, an approval, or both in one batch,
// answered with 200 each, then SIGKILLed (the whole tree, the daemon alone or the agent alone) at a point between
// the last vote's 200 and the model's next reply, a load with the client id, and the facts the judge needs: what
// the load answered, whether anyone was asked again, the model requests that told the model the answers, the
// ledger. The model's request that would carry the answers can be held (never answered): the kill then lands
// with the results on disk and the model's reply never given.
import type { OpenAIChatRequest } from "@qwen-daemon/core";
import type { FakeOpenAIServer } from "@qwen-daemon/core/testing";
import type { E2eEnv } from "../harness/e2e-env.js";
import { submitAnswers, vote } from "../harness/session-api.js";
import { readLedger, readTranscript } from "../harness/session-files.js";
import { dataOf } from "../harness/sse-views.js";
import { type KillMode, StoryDriver } from "./story-driver.js";

export const ALLOW = { outcome: { outcome: "selected", optionId: "proceed_once" } } as const;

type Request = { requestId: string; toolCall: { toolCallId: string; _meta?: { toolName?: string } } };

export interface AnsweredTurnFacts {
  /** The load's `restore` field. */
  restore: unknown;
  hasActivePrompt: boolean;
  /** permission_request frames any client got after the load. */
  askedAgain: number;
  /** Model requests after the answers whose newest messages are the batch's results and that were answered. */
  deliveries: number;
  /** The original prompt's and the restore prompt's ledger lines (state, code, restoredBy). */
  ledger: { original: string[]; restore: string[] };
  invalidHistory: string[];
  /** Record types of the transcript at the end (shown when a run fails). */
  transcript: string[];
}

export class AnsweredTurnRun extends StoryDriver {
  /** The batch's call ids, as the questions and approvals were shown. */
  readonly callIds: string[] = [];
  /** Set by the test's model handler: the request that would carry the answers arrived; kill, never answer. */
  hold: KillMode | undefined;
  /** Indexes of model requests held at the kill (never answered). */
  readonly held = new Set<number>();
  /** Resolves once a held request has triggered the kill. */
  readonly heldKill: Promise<void>;
  #heldKilled: () => void = () => {};
  #firstRequest: number;
  #seen = 0;

  constructor(env: E2eEnv, server: FakeOpenAIServer, switches: string[]) {
    super(env, server, switches);
    this.#firstRequest = server.requests.length;
    this.heldKill = new Promise((resolve) => {
      this.#heldKilled = resolve;
    });
  }

  /** Called by the model handler for a request whose newest message is a tool result: true when it is held. */
  onToolResultRequest(index: number): boolean {
    const mode = this.hold;
    if (mode === undefined) return false;
    this.hold = undefined;
    this.held.add(index);
    this.crashNow(mode, "the next model request arrived (results written), held");
    this.#heldKilled();
    return true;
  }

  /** Answers `count` interactions as they are shown; `beforeLast` runs right before the last vote. */
  async answerAll(count: number, beforeLast: () => void): Promise<void> {
    for (let i = 0; i < count; i++) {
      const frame = await this.requireEvents().waitFor(
        (f) => f.event === "permission_request" && Number(f.id ?? 0) > this.#seen,
        20_000,
        "a permission_request",
      );
      this.#seen = Number(frame.id ?? 0);
      const request = dataOf<Request>(frame);
      this.callIds.push(request.toolCall.toolCallId);
      const isQuestion = request.toolCall._meta?.toolName === "ask_user_question";
      if (i === count - 1) beforeLast();
      const res = await vote(
        this.daemon,
        this.sessionId,
        request.requestId,
        this.clientId,
        isQuestion ? submitAnswers({ "0": "Blue" }) : ALLOW,
      );
      if (res.status !== 200) throw new Error(`vote: HTTP ${res.status}`);
    }
  }

  /** Loads after the crash and follows the session until it rests; nothing may be asked. */
  async recoverAndJudge(): Promise<AnsweredTurnFacts> {
    const restored = await this.reopenAfterCrash();
    const events = this.requireEvents();
    await this.untilAtRest(async () => {});
    const restore = (restored as { restore?: { promptId?: string } }).restore;
    const restorePromptId = restore?.promptId;
    if (restorePromptId !== undefined) await this.turnComplete(restorePromptId);
    const requests = this.server.requests.slice(this.#firstRequest);
    const batch = new Set(this.callIds);
    const deliveries = requests.filter((r, i) => {
      if (this.held.has(i + this.#firstRequest)) return false;
      return trailingToolIds(r).some((id) => batch.has(id));
    }).length;
    const ledger = readLedger(this.env.qwenHome, this.env.workspace, this.sessionId);
    const linesOf = (promptId: string | undefined) =>
      ledger
        .filter((e) => e.promptId === promptId)
        .map((e) =>
          [
            e.state,
            e.code,
            e.restoredBy !== undefined && e.restoredBy === restorePromptId ? "restore" : e.restoredBy,
          ]
            .filter(Boolean)
            .join(" "),
        );
    return {
      restore,
      hasActivePrompt: restored.hasActivePrompt,
      askedAgain: events.events("permission_request").length,
      deliveries,
      ledger: { original: linesOf(this.accepted[0]), restore: linesOf(restorePromptId) },
      invalidHistory: this.invalidHistory(),
      transcript: readTranscript(this.env.qwenHome, this.env.workspace, this.sessionId).map(
        (r) =>
          `${r.type}${(r as { subtype?: string }).subtype ? `:${(r as { subtype?: string }).subtype}` : ""}`,
      ),
    };
  }
}

/** The tool_call_ids of the tool messages a request ends with (the results the model is asked to answer). */
function trailingToolIds(request: OpenAIChatRequest): string[] {
  const ids: string[] = [];
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const m = request.messages[i];
    if (m?.role !== "tool") break;
    ids.push(m.tool_call_id);
  }
  return ids;
}
