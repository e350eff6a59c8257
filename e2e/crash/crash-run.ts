// One run of the crash suite: a session driven to a kill point, SIGKILLed there (the whole tree, the daemon
// alone, or the ACP child alone), then recovered the way a client would (load with its client id, answer what
// is asked, resend what the load reports as never started, continue what was cut off, one more prompt), and
// judged. Everything the run sees is kept (SSE frames, acknowledged answers, prompt ids, model requests), and
// the checks at the end turn every broken promise into a line of `violations`:
// - an acknowledged answer lost: a model request carries another result for a call whose answer got a 200;
// - a question asked twice: a question whose answer got a 200 waits for a human again;
// - a question lost: a question the user was shown (or that was on disk) is not answered in the end;
// - an invalid history: the fake model rejected a request (its tool pairing check);
// - a turn that never ended: an accepted prompt with no terminal, live or in a load's promptTerminals, or a
//   prompt the agent's ledger still has in flight at the end.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { OpenAIChatRequest } from "@qwen-daemon/core";
import { type FakeOpenAIServer, lastMessage, messageText } from "@qwen-daemon/core/testing";
import type { E2eEnv } from "../harness/e2e-env.js";
import { answeredText, ORPHAN_REPAIR_TEXT } from "../harness/protocol-texts.js";
import { continueSession, submitAnswers, vote } from "../harness/session-api.js";
import { readLedger } from "../harness/session-files.js";
import type { SseFrame } from "../harness/sse-client.js";
import { dataOf } from "../harness/sse-views.js";
import { JOURNAL_GRACE_MS, StoryDriver } from "./story-driver.js";

export type { KillMode } from "./story-driver.js";

const SWITCH = ["--restore-ask-user-question"];

/** The answer a run gives to question `callId`: unique, so the model's input shows whose answer it is. */
const answerOf = (callId: string) => `ans-${callId}`;

export type Terminal = { promptId: string; code?: string; text?: string };

export class CrashRun extends StoryDriver {
  readonly violations: string[] = [];
  /** Question call ids whose answer was acknowledged with 200, with the answer given. */
  readonly acknowledged = new Map<string, string>();
  /** Prompt ids with a terminal: turn_complete / turn_error seen live, or in a load's promptTerminals. */
  readonly ended = new Set<string>();
  readonly #firstRequest: number;
  readonly #resent = new Set<string>();

  constructor(env: E2eEnv, server: FakeOpenAIServer) {
    super(env, server, SWITCH);
    this.#firstRequest = server.requests.length;
  }

  /** The first question request frame (already seen or future). */
  nextQuestion(after = 0): Promise<SseFrame> {
    const events = this.requireEvents();
    return events.waitFor(
      (f) => f.event === "permission_request" && Number(f.id ?? 0) > after,
      20_000,
      "a permission_request",
    );
  }

  /** Votes the run's answer on a question frame; true on 200 (the answer is then acknowledged). */
  async answer(frame: SseFrame): Promise<boolean> {
    const data = dataOf<{ requestId: string; toolCall: { toolCallId: string } }>(frame);
    const callId = data.toolCall.toolCallId;
    const res = await vote(
      this.daemon,
      this.sessionId,
      data.requestId,
      this.clientId,
      submitAnswers({ "0": answerOf(callId) }),
    );
    if (res.status === 200) this.acknowledged.set(callId, answerOf(callId));
    return res.status === 200;
  }

  /**
   * Waits for the crash to have happened everywhere, then loads the session again (a restarted daemon, or the
   * same one after its child died). Returns what the load reports as never started.
   */
  async recover(): Promise<Terminal[]> {
    const restored = await this.reopenAfterCrash();
    const terminals = ((restored as { promptTerminals?: Terminal[] }).promptTerminals ?? []) as Terminal[];
    for (const t of terminals) this.ended.add(t.promptId);
    return terminals.filter((t) => t.code === "never_started");
  }

  /**
   * Brings the session to rest after a recovery: answers what is asked, resends what never started (as the
   * client's user would, once), continues a cut-off turn. Returns when nothing is left to do.
   */
  async settleAfterRecovery(neverStarted: Terminal[]): Promise<void> {
    await this.settle();
    for (const t of neverStarted) {
      if (this.#resent.has(t.promptId) || t.text === undefined) continue;
      this.#resent.add(t.promptId);
      await this.prompt(t.text);
      await this.settle();
    }
    const continued = await continueSession(this.daemon, this.sessionId, this.clientId);
    if (continued.status === 200 && continued.body.accepted && continued.body.promptId !== undefined) {
      this.accepted.push(continued.body.promptId);
      await this.settle();
    }
  }

  /** Answers every question that waits until the session is idle; a re-asked acknowledged one is a violation. */
  async settle(): Promise<void> {
    const waitingSince = new Map<string, number>();
    await this.untilAtRest(async (status) => {
      for (const interaction of status.pendingInteractions) {
        if (interaction.kind !== "user_question") continue;
        const frame = await this.requireEvents().waitFor(
          (f) =>
            f.event === "permission_request" &&
            dataOf<{ requestId: string }>(f).requestId === interaction.requestId,
          5_000,
          `the permission_request of ${interaction.requestId}`,
        );
        const callId = dataOf<{ toolCall: { toolCallId: string } }>(frame).toolCall.toolCallId;
        if (this.acknowledged.has(callId)) {
          // Re-asked after a restart: the daemon's journal must answer it, not a human.
          const since = waitingSince.get(interaction.requestId) ?? Date.now();
          waitingSince.set(interaction.requestId, since);
          if (Date.now() - since < JOURNAL_GRACE_MS) continue;
          this.violations.push(
            `question ${callId} asked twice: its answer was acknowledged, yet it waits again`,
          );
          this.acknowledged.delete(callId);
        }
        await this.answer(frame);
      }
    });
  }

  /** One more prompt after everything: it must complete on a history the model accepts. */
  async finish(text: string): Promise<void> {
    const promptId = await this.prompt(text);
    await this.settle();
    await this.turnComplete(promptId);
  }

  /** Every promise the crash must not have broken (see the file comment); returns the violations. */
  verify(finalText: string): string[] {
    const v = this.violations;
    v.push(...this.invalidHistory());
    const requests = this.server.requests.slice(this.#firstRequest);
    for (const [i, request] of requests.entries()) {
      for (const m of request.messages) {
        if (m.role !== "tool") continue;
        const answer = this.acknowledged.get(m.tool_call_id);
        const expected = answer === undefined ? undefined : answeredText([["Color", answer]]);
        if (expected !== undefined && messageText(m) !== expected) {
          v.push(
            `acknowledged answer to ${m.tool_call_id} lost: request ${i} carries ${JSON.stringify(messageText(m))}`,
          );
        }
      }
    }
    const final = [...requests]
      .reverse()
      .find((r) => lastMessage(r)?.role === "user" && messageText(lastMessage(r)) === finalText);
    if (final === undefined) v.push("the final prompt never reached the model");
    else this.#checkQuestionsAnswered(final);
    const ledger = readLedger(this.env.qwenHome, this.env.workspace, this.sessionId);
    // A prompt whose question a restore asked again goes on as that restore prompt (the ledger says so).
    const restoredBy = new Map(
      ledger.flatMap((e) => (e.restoredBy ? [[e.promptId, e.restoredBy] as const] : [])),
    );
    for (const promptId of this.accepted) {
      const successor = restoredBy.get(promptId);
      if (this.ended.has(promptId) || (successor !== undefined && this.ended.has(successor))) continue;
      v.push(`prompt ${promptId} never ended (no terminal live or on load, no restore that ended)`);
    }
    const last = new Map(ledger.map((e) => [e.promptId, e.state]));
    for (const [promptId, state] of last) {
      if (state === "in_flight") v.push(`prompt ${promptId} is still in flight in the agent's ledger`);
    }
    return v;
  }

  /** In the final request every question has a result: the user's answer, or for a mixed batch the orphan text. */
  #checkQuestionsAnswered(final: OpenAIChatRequest): void {
    for (const m of final.messages) {
      if (m.role !== "assistant") continue;
      const calls = m.tool_calls ?? [];
      const mixed = calls.some((c) => c.function.name !== "ask_user_question");
      for (const call of calls) {
        if (call.function.name !== "ask_user_question") continue;
        const result = final.messages.find((x) => x.role === "tool" && x.tool_call_id === call.id);
        const text = result === undefined ? undefined : messageText(result);
        const answer = this.acknowledged.get(call.id);
        if (answer !== undefined) continue; // checked for every request above
        // Only a question beside another tool may go unanswered: restore never re-asks such a batch.
        if (!mixed || text !== ORPHAN_REPAIR_TEXT) {
          this.violations.push(`question ${call.id} lost: the model got ${JSON.stringify(text)} for it`);
        }
      }
    }
  }

  /** What a failed run's report shows besides its violations: the session's files as the last daemon left them. */
  files(): { ledger: unknown[]; journal: string } {
    const chats = join(this.env.qwenHome, "projects", this.env.workspace.replaceAll("/", "-"), "chats");
    const journal = join(chats, `${this.sessionId}.prompts.jsonl`);
    return {
      ledger: readLedger(this.env.qwenHome, this.env.workspace, this.sessionId),
      journal: existsSync(journal) ? readFileSync(journal, "utf8") : "",
    };
  }

  protected override observe(frame: SseFrame): void {
    const promptId = frame.json?.promptId;
    if ((frame.event === "turn_complete" || frame.event === "turn_error") && typeof promptId === "string") {
      this.ended.add(promptId);
    }
  }
}
