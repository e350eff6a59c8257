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
import type { DaemonProcess } from "../harness/daemon-process.js";
import type { E2eEnv } from "../harness/e2e-env.js";
import { descendantsOf, isAlive, killTree } from "../harness/process-tree.js";
import { answeredText, ORPHAN_REPAIR_TEXT } from "../harness/protocol-texts.js";
import {
  continueSession,
  createSession,
  expectRestored,
  getStatus,
  openEvents,
  postPrompt,
  submitAnswers,
  vote,
} from "../harness/session-api.js";
import { readLedger } from "../harness/session-files.js";
import type { SseClient, SseFrame } from "../harness/sse-client.js";
import { dataOf } from "../harness/sse-views.js";

export type KillMode = "tree" | "daemon" | "child";

const SWITCH = ["--restore-ask-user-question"];
/** How long a re-asked question whose answer was acknowledged may wait for the journal to answer it. */
const JOURNAL_GRACE_MS = 5_000;
const SETTLE_TIMEOUT_MS = 30_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The answer a run gives to question `callId`: unique, so the model's input shows whose answer it is. */
const answerOf = (callId: string) => `ans-${callId}`;

export type Terminal = { promptId: string; code?: string; text?: string };

export class CrashRun {
  readonly violations: string[] = [];
  /** Question call ids whose answer was acknowledged with 200, with the answer given. */
  readonly acknowledged = new Map<string, string>();
  /** Prompt ids answered 202 (or accepted continues). */
  readonly accepted: string[] = [];
  /** Prompt ids with a terminal: turn_complete / turn_error seen live, or in a load's promptTerminals. */
  readonly ended = new Set<string>();
  /** Kill points reached, in order (what the run actually did, for the failure message). */
  readonly steps: string[] = [];
  daemon!: DaemonProcess;
  sessionId = "";
  clientId = "";
  events: SseClient | undefined;
  /** Called for every SSE frame as it arrives (a scenario's kill trigger). */
  trigger: ((frame: SseFrame) => void) | undefined;
  readonly #env: E2eEnv;
  readonly #server: FakeOpenAIServer;
  readonly #firstRequest: number;
  readonly #firstRejected: number;
  readonly #resent = new Set<string>();
  #frozen: number[] = [];
  #crash: { mode: KillMode; pids: number[] } | undefined;

  constructor(env: E2eEnv, server: FakeOpenAIServer) {
    this.#env = env;
    this.#server = server;
    this.#firstRequest = server.requests.length;
    this.#firstRejected = server.rejected.length;
  }

  async start(): Promise<void> {
    this.daemon = await this.#env.startDaemon(SWITCH);
    const created = await createSession(this.daemon);
    this.sessionId = created.sessionId;
    this.clientId = created.clientId;
    await this.#open(undefined);
  }

  /** POST /prompt; its id is remembered (and must end somehow). */
  async prompt(text: string): Promise<string> {
    const res = await postPrompt(this.daemon, this.sessionId, this.clientId, {
      prompt: [{ type: "text", text }],
    });
    if (res.status !== 202) throw new Error(`prompt ${JSON.stringify(text)}: HTTP ${res.status}`);
    this.accepted.push(res.body.promptId);
    return res.body.promptId;
  }

  /** The first question request frame (already seen or future). */
  nextQuestion(after = 0): Promise<SseFrame> {
    const events = this.#requireEvents();
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

  /** SIGSTOPs the daemon's children: nothing the daemon sends them now is acted on before the kill. */
  freezeChildren(): void {
    this.#frozen = descendantsOf(this.daemon.pid);
    for (const pid of this.#frozen) process.kill(pid, "SIGSTOP");
  }

  /** The kill itself, synchronous so a frame callback can land it at that very instant. */
  crashNow(mode: KillMode, step: string): void {
    if (this.#crash !== undefined) return;
    this.steps.push(`${step} (${mode})`);
    const children = descendantsOf(this.daemon.pid);
    if (mode === "tree") killTree(this.daemon.pid);
    else if (mode === "daemon") process.kill(this.daemon.pid, "SIGKILL");
    else for (const pid of children) process.kill(pid, "SIGKILL");
    // Frozen children of a killed daemon must run again to see their stdin end.
    if (mode === "daemon") for (const pid of this.#frozen) process.kill(pid, "SIGCONT");
    this.#frozen = [];
    this.#crash = { mode, pids: children };
    this.trigger = undefined;
  }

  /**
   * Waits for the crash to have happened everywhere, then loads the session again (a restarted daemon, or the
   * same one after its child died). Returns what the load reports as never started.
   */
  async recover(): Promise<Terminal[]> {
    const crash = this.#crash;
    if (crash === undefined) throw new Error("recover() without a crash");
    this.#crash = undefined;
    await this.#afterCrash(crash);
    if (crash.mode !== "child") this.daemon = await this.#env.startDaemon(SWITCH);
    const restored = await expectRestored(this.daemon, "load", this.sessionId, this.clientId);
    this.clientId = restored.clientId;
    const terminals = ((restored as { promptTerminals?: Terminal[] }).promptTerminals ?? []) as Terminal[];
    for (const t of terminals) this.ended.add(t.promptId);
    await this.#open(restored.lastEventId);
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
    const deadline = Date.now() + SETTLE_TIMEOUT_MS;
    const waitingSince = new Map<string, number>();
    for (;;) {
      const status = await getStatus(this.daemon, this.sessionId);
      for (const interaction of status.pendingInteractions) {
        if (interaction.kind !== "user_question") continue;
        const frame = await this.#requireEvents().waitFor(
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
      const pending = await this.daemon.json<{ pendingPrompts: unknown[] }>(
        "GET",
        `/session/${this.sessionId}/pending-prompts`,
      );
      if (
        !status.hasActivePrompt &&
        status.pendingInteractionCount === 0 &&
        pending.body.pendingPrompts.length === 0
      )
        return;
      if (Date.now() > deadline) throw new Error(`the session never came to rest: ${JSON.stringify(status)}`);
      await sleep(25);
    }
  }

  /** One more prompt after everything: it must complete on a history the model accepts. */
  async finish(text: string): Promise<void> {
    const promptId = await this.prompt(text);
    await this.settle();
    await this.#requireEvents().waitFor(
      (f) => f.event === "turn_complete" && f.json?.promptId === promptId,
      20_000,
      "the final turn_complete",
    );
  }

  /** Every promise the crash must not have broken (see the file comment); returns the violations. */
  verify(finalText: string): string[] {
    const v = this.violations;
    for (const r of this.#server.rejected.slice(this.#firstRejected)) {
      v.push(`invalid history: the model rejected request ${r.index} (${r.status}): ${r.reason}`);
    }
    const requests = this.#server.requests.slice(this.#firstRequest);
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
    const ledger = readLedger(this.#env.qwenHome, this.#env.workspace, this.sessionId);
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

  async dispose(): Promise<void> {
    await this.events?.close();
  }

  /** What a failed run's report shows besides its violations: the session's files as the last daemon left them. */
  files(): { ledger: unknown[]; journal: string } {
    const chats = join(this.#env.qwenHome, "projects", this.#env.workspace.replaceAll("/", "-"), "chats");
    const journal = join(chats, `${this.sessionId}.prompts.jsonl`);
    return {
      ledger: readLedger(this.#env.qwenHome, this.#env.workspace, this.sessionId),
      journal: existsSync(journal) ? readFileSync(journal, "utf8") : "",
    };
  }

  async #afterCrash(crash: { mode: KillMode; pids: number[] }): Promise<void> {
    // The stream ends with the daemon; a live daemon ends it once it has told the child's death.
    await this.events?.finished();
    this.events = undefined;
    if (crash.mode !== "child") await this.daemon.exited;
    const deadline = Date.now() + 20_000;
    while (crash.pids.some(isAlive)) {
      if (Date.now() > deadline)
        throw new Error(`processes ${crash.pids.filter(isAlive)} outlived the crash`);
      await sleep(20);
    }
    if (crash.mode !== "child") return;
    // The daemon notices its child's death and ends the session; the client then loads it again.
    for (;;) {
      const res = await this.daemon.json("GET", `/session/${this.sessionId}/status`);
      if (res.status === 404) return;
      if (Date.now() > deadline) throw new Error("the daemon never noticed its child died");
      await sleep(20);
    }
  }

  async #open(lastEventId: number | undefined): Promise<void> {
    const events = await openEvents(
      this.daemon,
      this.sessionId,
      lastEventId === undefined ? {} : { lastEventId },
    );
    events.onFrame = (frame) => {
      this.#note(frame);
      this.trigger?.(frame);
    };
    // Frames that arrived before the callback was set.
    for (const frame of events.frames) {
      this.#note(frame);
      this.trigger?.(frame);
    }
    this.events = events;
  }

  #note(frame: SseFrame): void {
    const promptId = frame.json?.promptId;
    if ((frame.event === "turn_complete" || frame.event === "turn_error") && typeof promptId === "string") {
      this.ended.add(promptId);
    }
  }

  #requireEvents(): SseClient {
    if (this.events === undefined) throw new Error("no event stream open");
    return this.events;
  }
}
