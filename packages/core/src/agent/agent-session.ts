// One agent session (one per ACP session): the chat, its transcript and prompt ledger, and the three ways a
// turn starts: a user prompt, a restored question (docs/restore.md "How a restore runs", step 5) and "continue" after an interruption.
// One prompt at a time: a second call while one runs throws SessionBusyError (the host queues).
import type { FunctionCall, Part } from "../content.js";
import { classifyRestoreTail } from "../history/restore-tail.js";
import { classifySessionTail } from "../history/session-recovery.js";
import { RESTORE_KIND_NAMES, type RestoreKindName } from "../protocol/restore-kinds.js";
import type { ConfirmationKind } from "../tools/tool.js";
import { historyFromRecords } from "../transcript/history.js";
import { DAEMON_LOST, PromptLedger } from "../transcript/ledger.js";
import { readSessionTranscript } from "../transcript/reader.js";
import { type LedgerEntry, SESSION_CREATED_SUBTYPE, type TranscriptRecord } from "../transcript/records.js";
import { SessionTranscript } from "../transcript/session-transcript.js";
import { SessionBusyError, SessionClosedError, SessionExistsError } from "./agent-session-errors.js";
import {
  type AgentPromptOptions,
  type AgentSessionLoadOptions,
  type AgentSessionOptions,
  type ContinueResult,
  ledgerOptionsOf,
  transcriptOptionsOf,
} from "./agent-session-options.js";
import { type AnsweredBatch, answeredBatchResults, type GivenAnswer } from "./answered-batch.js";
import { Chat } from "./chat.js";
import type { BeforeExecuteHook, SessionToolContext, StopReason } from "./contract.js";
import { pendingApprovalsOf, startedCallResults, switchesOf } from "./pending-approvals.js";
import { hostLost, ledgerTerminal } from "./prompt-outcome.js";
import { callIdsOf, preservedAtLoad, RESTORE_ELIGIBILITY, restorableCalls } from "./restore-eligibility.js";
import { sessionRecorder } from "./session-recorder.js";
import { DEFAULT_MAX_TURNS, runTurn, type TurnOutcome, type TurnStart } from "./turn-loop.js";
import type { TurnRecorder } from "./turn-recorder.js";

export { SessionBusyError, SessionClosedError, SessionExistsError } from "./agent-session-errors.js";
export type {
  AgentPromptOptions,
  AgentSessionLoadOptions,
  AgentSessionOptions,
  ContinueResult,
  TurnInterruption,
} from "./agent-session-options.js";

export class AgentSession {
  readonly sessionId: string;
  #chat: Chat;
  readonly #opts: AgentSessionOptions;
  readonly #transcript: SessionTranscript;
  readonly #ledger: PromptLedger;
  readonly #records: TranscriptRecord[];
  /** Kinds allowed for the rest of the session ("approved_always"). */
  readonly #alwaysAllowed = new Set<ConfirmationKind>();
  #active = false;
  #closed = false;
  /** Load left `in_flight` ledger entries open for a restore to close; the next prompt closes them otherwise. */
  #staleOpenPrompts: boolean;
  /**
   * Answers the host journaled for some questions of a re-askable batch that load left dangling on disk (the
   * others still open, nobody to ask them now). A later load with someone to ask re-asks the batch; a prompt
   * that moves on here first closes it with these answers (see #closeHeldBatch), so they reach the model.
   */
  #heldAnswers: ReadonlyMap<string, GivenAnswer> | undefined;

  private constructor(
    opts: AgentSessionOptions,
    parts: { chat: Chat; transcript: SessionTranscript; ledger: PromptLedger; records: TranscriptRecord[] },
    staleOpenPrompts: boolean,
    heldAnswers?: ReadonlyMap<string, GivenAnswer>,
  ) {
    this.sessionId = opts.sessionId;
    this.#opts = opts;
    this.#chat = parts.chat;
    this.#heldAnswers = heldAnswers;
    this.#transcript = parts.transcript;
    this.#ledger = parts.ledger;
    this.#records = parts.records;
    this.#staleOpenPrompts = staleOpenPrompts;
  }

  /**
   * A new session. Its transcript starts with a durable `session_created` record, so the session is on disk
   * before anyone learns its id: another process can list, load and resume it even if it is never prompted.
   */
  static async create(opts: AgentSessionOptions): Promise<AgentSession> {
    const location = { storage: opts.storage, cwd: opts.cwd, sessionId: opts.sessionId };
    if (await SessionTranscript.exists(location)) throw new SessionExistsError(opts.sessionId);
    const transcript = await SessionTranscript.open(transcriptOptionsOf(opts));
    const created = await transcript.appendSystem(SESSION_CREATED_SUBTYPE, undefined, { durable: true });
    const ledger = PromptLedger.forSession(location, ledgerOptionsOf(opts));
    // A ledger without a transcript: the session was created before under this id and never saved (a crash
    // between a prompt's ledger entry and its first record); what it left in flight is closed as lost now, so
    // no prompt stays in flight forever.
    await ledger.closeInterrupted();
    return new AgentSession(opts, { chat: Chat.start([]), transcript, ledger, records: [created] }, false);
  }

  /**
   * Reads the transcript (TranscriptNotFoundError when there is none) and starts the chat. The calls of a
   * trailing batch a restore kind would ask again (its switch on, its preservation not suppressed on the
   * Config) are left dangling for restore(kind); every other dangling call is repaired. When nothing will be restored, prompts the ledger still has in
   * flight (their process died) are closed as interrupted / daemon_lost.
   */
  static async load(opts: AgentSessionLoadOptions): Promise<AgentSession> {
    const { records } = await readSessionTranscript(opts);
    let history = historyFromRecords(records);
    const transcript = await SessionTranscript.open(transcriptOptionsOf(opts));
    const switches = switchesOf(opts.config);
    // Calls of the trailing batch that had started are closed now (never run again), before anything is
    // asked again: a restore never runs next to a call whose fate is unknown.
    const approvals = pendingApprovalsOf(history, records, switches);
    if (approvals && approvals.closedAsStarted.length > 0) {
      for (const { message, result } of startedCallResults(approvals.closedAsStarted))
        records.push(await transcript.appendToolResult(message, result));
      history = historyFromRecords(records);
    }
    const { found, preserveCallIds } = preservedAtLoad(
      RESTORE_ELIGIBILITY,
      { history, records, switches },
      (kind) => opts.config.getPreserveRestorable(kind),
    );
    let heldAnswers: ReadonlyMap<string, GivenAnswer> | undefined;
    if (
      preserveCallIds === undefined &&
      opts.givenAnswers &&
      (found !== undefined || opts.config.getRestoreAskUserQuestion())
    ) {
      const batch = answeredBatchResults(history, opts.givenAnswers);
      // A batch a restore could ask again is closed only when every call of it is answered (only questions
      // can be): one still open stays dangling on disk for a later load with someone to ask (or for the
      // next prompt here), the answers kept for it.
      if (batch && (found === undefined || batch.answeredCallIds.length === callIdsOf(found.calls).size)) {
        await appendBatch(transcript, records, batch);
        history = historyFromRecords(records);
      } else if (batch) {
        heldAnswers = opts.givenAnswers;
      }
    }
    const chat = Chat.start(history, preserveCallIds ? { preserveCallIds } : {});
    const ledger = PromptLedger.forSession(opts, ledgerOptionsOf(opts));
    const session = new AgentSession(opts, { chat, transcript, ledger, records }, true, heldAnswers);
    // A turn whose answers the model never saw goes on in a restore prompt, which closes these prompts as
    // restored by it; a suppressed preservation says nobody is there for it now.
    const continued = session.answeredTail();
    const continues = continued !== undefined && opts.config.getPreserveRestorable(continued);
    if (!RESTORE_KIND_NAMES.some((kind) => session.restorable(kind)) && !continues)
      await session.closeInterruptedPrompts();
    return session;
  }

  /** The conversation as the model sees it. */
  get chat(): Chat {
    return this.#chat;
  }

  get promptActive(): boolean {
    return this.#active;
  }

  /** The records on disk, in file order: those read at load plus those written since. */
  records(): readonly TranscriptRecord[] {
    return this.#records;
  }

  /**
   * The calls restore kind `kind` would ask again now (its switch on and the chat ending with a batch its
   * eligibility rule, agent/restore-eligibility.ts, admits), or undefined.
   */
  restorable(kind: RestoreKindName): { functionCalls: FunctionCall[] } | undefined {
    const calls = restorableCalls(RESTORE_ELIGIBILITY, kind, {
      history: this.chat.getHistory(),
      records: this.#records,
      switches: switchesOf(this.#opts.config),
    });
    return calls === undefined ? undefined : { functionCalls: calls };
  }

  /** The restore switch is on and the chat ends with a restorable question batch: its calls. */
  restorableQuestion(): { functionCalls: FunctionCall[] } | undefined {
    return this.restorable("question");
  }

  /**
   * `--restore-pending-approvals` is on and the chat ends with a batch whose approvals (and, with the question
   * switch, questions) never got an answer and whose tools never started: the calls to ask again.
   */
  restorableApprovals(): { functionCalls: FunctionCall[] } | undefined {
    return this.restorable("approvals");
  }

  /**
   * The transcript ends with a batch whose answers (a question answered, a tool a person approved) the model
   * never saw, and the turn neither ended nor stopped (history/restore-tail.ts): the restore that lets the
   * same turn go on, named by the switch it runs under ("approvals" when a person's approval is among the
   * answers, else "question"), when the switches cover every answer. Undefined otherwise.
   */
  answeredTail(): RestoreKindName | undefined {
    const tail = classifyRestoreTail(this.#records, switchesOf(this.#opts.config));
    if (tail.kind !== "answered_unseen" || !tail.covered) return undefined;
    return tail.needs.approvals ? "approvals" : "question";
  }

  /** Prompt ids the ledger has in flight (before a prompt runs: ones whose process died). */
  openPrompts(): Promise<string[]> {
    return this.#ledger.openPrompts();
  }

  /**
   * Closes every in-flight ledger entry as interrupted (default code daemon_lost). For a host that decides
   * not to restore after all; prompt() does it too before its own entry.
   */
  async closeInterruptedPrompts(code: string = DAEMON_LOST): Promise<LedgerEntry[]> {
    this.#staleOpenPrompts = false;
    return this.#ledger.closeInterrupted(code);
  }

  async prompt(parts: Part[], opts: AgentPromptOptions): Promise<{ stopReason: StopReason }> {
    return this.#tracked(opts, async () => {
      await this.#closeHeldBatch();
      return this.#turn(opts, { kind: "user", parts });
    });
  }

  /**
   * docs/restore.md "How a restore runs", step 5, for restore kind `kind`. Re-checks the switch and the
   * trailing batch (a forged or already answered one is a no-op end_turn), asks its calls again through
   * confirm() (fresh requests), records the real answers and continues the same turn; a batch whose answers
   * the model never saw under this kind (answeredTail) goes on without asking. No user record. The prompts the
   * restore takes over get interrupted {code: "restored", restoredBy: promptId}. Cancel records the decline;
   * an unattended end records nothing for the batch.
   */
  async restore(kind: RestoreKindName, opts: AgentPromptOptions): Promise<{ stopReason: StopReason }> {
    const calls = this.restorable(kind);
    if (!calls && this.answeredTail() === kind) return this.#continueAnswered(opts);
    return this.#restore(opts, calls);
  }

  /** restore("question"): the trailing question batch, asked again. */
  async restoreQuestion(opts: AgentPromptOptions): Promise<{ stopReason: StopReason }> {
    return this.restore("question", opts);
  }

  /** restore("approvals"): the batch of restorableApprovals(), asked again, then run, and the turn goes on. */
  async restorePendingApprovals(opts: AgentPromptOptions): Promise<{ stopReason: StopReason }> {
    return this.restore("approvals", opts);
  }

  /**
   * The restore of an answered tail (see answeredTail): the answers are already in the transcript and the
   * chat, so the history is sent as it is and the same turn goes on; nobody is asked, nothing is written
   * before the model's reply. Like every restore it takes the crashed prompts over (interrupted, restored by
   * this one).
   */
  async #continueAnswered(opts: AgentPromptOptions): Promise<{ stopReason: StopReason }> {
    return this.#tracked(
      opts,
      async () => {
        this.#staleOpenPrompts = false;
        await this.#ledger.closeInterrupted("restored", opts.promptId);
        return this.#turn(opts, { kind: "continue" });
      },
      { takesOver: true },
    );
  }

  async #restore(
    opts: AgentPromptOptions,
    question: { functionCalls: FunctionCall[] } | undefined,
  ): Promise<{ stopReason: StopReason }> {
    if (!question) return this.#tracked(opts, async () => ({ stopReason: "end_turn", modelRequests: 0 }));
    return this.#tracked(
      opts,
      async () => {
        this.#staleOpenPrompts = false;
        await this.#ledger.closeInterrupted("restored", opts.promptId);
        return this.#turn(opts, { kind: "pending_calls", calls: question.functionCalls });
      },
      { takesOver: true },
    );
  }

  /**
   * Continues a turn cut short, classified from the transcript: `interrupted_prompt` (the model never
   * answered the last user entry) re-runs the model; `interrupted_turn` (calls without results) records the
   * orphan-repair failure for each and continues. Refused while a restorable question waits: generic
   * continue would turn the question into a tool failure.
   */
  async continueLastTurn(opts: AgentPromptOptions): Promise<ContinueResult> {
    this.#assertIdle();
    if (RESTORE_KIND_NAMES.some((kind) => this.restorable(kind)))
      return { accepted: false, interruption: "none" };
    await this.#closeHeldBatch();
    const tail = classifySessionTail(historyFromRecords(this.#records));
    if (tail.kind !== "interrupted_prompt" && tail.kind !== "interrupted_turn") {
      return { accepted: false, interruption: "none" };
    }
    const { stopReason } = await this.#tracked(opts, async () => {
      if (tail.kind === "interrupted_turn") {
        const recorder = this.#recorder(opts);
        for (const part of tail.syntheticResponses.parts) {
          const response = part.functionResponse!;
          await recorder.toolResult(
            { role: "user", parts: [part] },
            { callId: response.id!, status: "error", resultDisplay: String(response.response.error) },
          );
        }
        // Load-time repair already put these very responses in the chat; a live dangling call has none yet.
        if (this.chat.peekLastHistoryEntry()?.role === "model") this.chat.append(tail.syntheticResponses);
      }
      return this.#turn(opts, { kind: "continue" });
    });
    return { accepted: true, interruption: tail.kind, stopReason };
  }

  /** Waits for pending writes and closes the files. Idempotent; abort a running prompt first. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([this.#transcript.close(), this.#ledger.close()]);
  }

  /**
   * Writes the held batch's results (the journaled answers, the orphan text for its other calls) before a
   * prompt moves on, and restarts the chat from the records: the model then sees the answers the user gave
   * (not the orphan text load-time repair put in memory), and a later load reads the same history from disk.
   */
  async #closeHeldBatch(): Promise<void> {
    const held = this.#heldAnswers;
    this.#heldAnswers = undefined;
    if (held === undefined) return;
    const batch = answeredBatchResults(historyFromRecords(this.#records), held);
    if (batch === undefined) return;
    await appendBatch(this.#transcript, this.#records, batch);
    this.#chat = Chat.start(historyFromRecords(this.#records));
  }

  #assertIdle(): void {
    if (this.#closed) throw new SessionClosedError(this.sessionId);
    if (this.#active) throw new SessionBusyError(this.sessionId);
  }

  /**
   * Runs `body` as the one active prompt with its ledger entries: in_flight, then one terminal state.
   * Prompts a crash left in flight are closed first (daemon_lost), unless the body `takesOver` them (a
   * restore, which closes them as restored by this prompt).
   */
  async #tracked(
    opts: AgentPromptOptions,
    body: () => Promise<TurnOutcome>,
    { takesOver = false } = {},
  ): Promise<{ stopReason: StopReason }> {
    this.#assertIdle();
    this.#active = true;
    try {
      if (this.#staleOpenPrompts && !takesOver) await this.closeInterruptedPrompts();
      await this.#ledger.begin(opts.promptId);
      let outcome: TurnOutcome;
      try {
        outcome = await body();
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        await this.#ledger.finish(opts.promptId, "failed", { message });
        throw error;
      }
      // The host is gone: the prompt stays in flight for the next load to close, as daemon_lost or as
      // restored by the prompt that re-asks its question (docs/restore.md "The guarantees").
      if (hostLost(opts.signal)) return { stopReason: outcome.stopReason };
      const [state, details] = ledgerTerminal(outcome, opts.signal);
      await this.#ledger.finish(opts.promptId, state, details);
      return { stopReason: outcome.stopReason };
    } finally {
      this.#active = false;
    }
  }

  #turn(opts: AgentPromptOptions, start: TurnStart): Promise<TurnOutcome> {
    const o = this.#opts;
    return runTurn(
      {
        chat: this.chat,
        provider: o.provider,
        tools: o.tools,
        recorder: this.#recorder(opts),
        onEvent: o.onEvent,
        confirm: o.confirm,
        ...(o.beforeExecute === undefined
          ? {}
          : { beforeExecute: bindPrompt(o.beforeExecute, opts.promptId) }),
        cwd: o.cwd,
        approvalMode: () => o.config.approvalMode,
        alwaysAllowed: this.#alwaysAllowed,
        maxTurns: o.maxTurns ?? DEFAULT_MAX_TURNS,
        recordToolStarts: o.config.getRestorePendingApprovals(),
        ...(o.systemInstruction === undefined ? {} : { systemInstruction: o.systemInstruction }),
        signal: opts.signal,
      },
      start,
    );
  }

  #recorder({ promptId, signal, userMessageId }: AgentPromptOptions): TurnRecorder {
    return sessionRecorder(this.#transcript, this.#records, {
      promptId,
      userMessageId,
      signal,
      model: this.#opts.provider.model,
      recordStarts: this.#opts.config.getRestorePendingApprovals(),
    });
  }
}

async function appendBatch(
  transcript: SessionTranscript,
  records: TranscriptRecord[],
  batch: AnsweredBatch,
): Promise<void> {
  for (const { message, result } of batch.results)
    records.push(await transcript.appendToolResult(message, result));
}

function bindPrompt(hook: BeforeExecuteHook<SessionToolContext>, promptId: string): BeforeExecuteHook {
  return (call, ctx) => hook(call, { ...ctx, promptId });
}
