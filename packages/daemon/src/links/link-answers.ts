// Answer links at work (docs/notifications.md): what `GET /a/<capability>` shows and what `POST` does. A
// capability that does not verify (malformed, tampered, foreign, expired, signed with a rotated key) gets a
// plain error page and counts against its address. A valid one is judged against the question it names
// (session + tool call id), one use at a time per question:
// - waiting in a live session: POST votes through the vote route's durable path (voteDurably: judged by the
//   policy with the voter `link:<label>`, journaled and fsynced, then applied), GET shows a confirm page;
// - answered (the answer journal, which every link answer goes into, or the transcript): the page says so,
//   with the first answer, by whom and when; this is what makes a link single-use across restarts;
// - only on disk (the daemon restarted): GET shows it from the transcript; POST opens the session as a
//   client would (the restore asks it again), waits for it, answers it, and lets that client go.
import { pendingInteractionKindOf, type TranscriptRecord } from "@qwen-daemon/core";
import {
  type LinkCapability,
  type PermissionVoteBody,
  type RestoreKindName,
  RestoreKinds,
  restoreKindCovering,
} from "@qwen-daemon/core/protocol";
import type { JournalEntry } from "../answers/answer-record.js";
import { KeyedSerializer } from "../answers/keyed-serializer.js";
import { DaemonError } from "../errors/daemon-error.js";
import type { Clock } from "../events/clock.js";
import type { PendingPermission } from "../permission/mediator.js";
import { linkAnswerRefusal } from "../permission/policies.js";
import { TRANSCRIPT_TAIL_RECORDS } from "../sessions/answer-replay.js";
import { voteDurably } from "../sessions/durable-vote.js";
import { openSession } from "../sessions/session-open.js";
import type { Sessions } from "../sessions/sessions.js";
import { type CapabilityProblem, verifyCapability } from "./capability.js";
import { FailureLimiter } from "./failure-limiter.js";
import type { LinkKey } from "./link-key.js";
import {
  alreadyAnsweredPage,
  answeredPage,
  answerPage,
  confirmPage,
  type LinkView,
  messagePage,
  type Page,
} from "./link-pages.js";
import {
  answersFromForm,
  answerText,
  callStateInTranscript,
  viewOfCall,
  viewOfToolCall,
} from "./link-view.js";
import type { RequestWaits } from "./request-waits.js";

export type LinkAnswersOptions = {
  sessions: Sessions;
  key: LinkKey;
  /** `--allow-link-answers`: links answer under every policy. */
  allowLinkAnswers: boolean;
  clock: Clock;
  waits: RequestWaits;
  /** How long a POST after a restart waits for the question to be asked again (default 60 s). */
  reaskTimeoutMs?: number;
  /** Failed capabilities an address may present per window before it is refused (default 20 per 10 min). */
  maxFailures?: number;
  failureWindowMs?: number;
  log: (line: string) => void;
};

/** Where the question a capability names stands now. */
type Found =
  | { kind: "pending"; request: PendingPermission; view: LinkView }
  | { kind: "on_disk"; view: LinkView; restoreKind: RestoreKindName | undefined }
  | { kind: "answered"; view: LinkView | undefined; first: FirstAnswer }
  | { kind: "gone"; live: boolean };

type FirstAnswer = { answer?: string; by?: string; at?: string };

const PROBLEM_TEXT: Record<CapabilityProblem, string> = {
  malformed: "This is not an answer link.",
  bad_signature:
    "This answer link is not valid here: it was changed, belongs to another daemon, or its key was rotated.",
  bad_payload: "This answer link is not valid.",
  expired: "This answer link has expired.",
};

export class LinkAnswers {
  readonly #o: LinkAnswersOptions;
  readonly #limiter: FailureLimiter;
  readonly #perQuestion = new KeyedSerializer();

  constructor(options: LinkAnswersOptions) {
    this.#o = options;
    this.#limiter = new FailureLimiter({
      max: options.maxFailures ?? 20,
      windowMs: options.failureWindowMs ?? 10 * 60_000,
    });
  }

  /** GET: never changes anything. */
  async show(token: string, address: string): Promise<Page> {
    const checked = this.#verify(token, address);
    if ("page" in checked) return checked.page;
    const cap = checked.capability;
    const found = await this.#find(cap);
    if (found.kind === "pending" || found.kind === "on_disk") {
      return cap.d.kind === "page" ? answerPage(found.view) : confirmPage(found.view, cap.l);
    }
    return this.#endedPage(found);
  }

  /** POST: answers, at most once per question. `form` is the answer page's fields. */
  async answer(token: string, address: string, form: URLSearchParams): Promise<Page> {
    const checked = this.#verify(token, address);
    if ("page" in checked) return checked.page;
    const cap = checked.capability;
    return this.#perQuestion.run(JSON.stringify([cap.s, cap.t]), () => this.#answerOnce(cap, form));
  }

  async #answerOnce(cap: LinkCapability, form: URLSearchParams): Promise<Page> {
    const found = await this.#find(cap);
    if (found.kind === "pending") return this.#vote(cap, found.request, found.view, form);
    if (found.kind !== "on_disk") return this.#endedPage(found);
    const { sessions } = this.#o;
    const refusal = linkAnswerRefusal(sessions.mediator.policy, this.#o.allowLinkAnswers);
    if (refusal !== undefined) return this.#refusedPage();
    // The restore that would ask it again is the kind whose row covers what the call waits for.
    const kind = found.restoreKind;
    if (kind === undefined || !sessions.switches[kind]) {
      const why = kind === undefined ? "" : `, and it runs without ${RestoreKinds[kind].flag}`;
      return messagePage(
        503,
        "Cannot be asked again",
        `The daemon restarted since this was asked${why}, so it cannot ask it again to take your answer. Open the session in the web client.`,
      );
    }
    return this.#reaskAndVote(cap, found.view, form);
  }

  /** After a restart: open the session as a client would, so the restore asks the question again; answer it. */
  async #reaskAndVote(cap: LinkCapability, view: LinkView, form: URLSearchParams): Promise<Page> {
    const { sessions } = this.#o;
    const asked = this.#o.waits.expect(cap.s, cap.t, this.#o.reaskTimeoutMs ?? 60_000);
    let clientId: string | undefined;
    try {
      try {
        // With a client id, as a client's load would carry: a restore is admitted only for someone attached.
        // The daemon mints the id it attaches (the nonce is base64url, a valid client id).
        const requested = `link:${cap.n}`;
        clientId = (await openSession(sessions, "resume", cap.s, sessions.workspace, requested)).clientId;
      } catch (error) {
        this.#o.log(`qwen serve: answer link: could not open ${cap.s}: ${String(error)}`);
        return messagePage(503, "Cannot be asked again", "The session could not be opened. Try again later.");
      }
      const already = sessions.mediator.pending(cap.s).find((p) => p.toolCall.toolCallId === cap.t);
      if (already === undefined) await asked.next;
      const request = sessions.mediator.pending(cap.s).find((p) => p.toolCall.toolCallId === cap.t);
      if (request === undefined) {
        const found = await this.#find(cap);
        if (found.kind === "answered") return this.#endedPage(found);
        return messagePage(
          503,
          "Not asked again",
          "The session was opened but did not ask this again. Open the session in the web client.",
        );
      }
      return await this.#vote(cap, request, view, form);
    } finally {
      asked.cancel();
      if (clientId !== undefined) sessions.registry.get(cap.s)?.detach(clientId);
    }
  }

  async #vote(
    cap: LinkCapability,
    request: PendingPermission,
    view: LinkView,
    form: URLSearchParams,
  ): Promise<Page> {
    let vote: PermissionVoteBody;
    if (cap.d.kind === "vote") vote = cap.d.vote;
    else if (form.get("do") === "decline") vote = { outcome: { outcome: "cancelled" } };
    else {
      const submit = request.options.find((o) => o.kind === "allow_once")?.optionId;
      const { answers, missing } = answersFromForm(view, form);
      if (submit === undefined || view.questions.length === 0)
        return answerPage(view, "This cannot be answered here.");
      if (missing.length > 0) {
        return answerPage(view, `Answer every question (missing: ${missing.map((i) => i + 1).join(", ")}).`);
      }
      vote = { outcome: { outcome: "selected", optionId: submit }, answers };
    }
    let result: Awaited<ReturnType<typeof voteDurably>>;
    try {
      result = await voteDurably(this.#o.sessions, {
        sessionId: cap.s,
        requestId: request.requestId,
        clientId: `link:${cap.l}`,
        outcome: vote.outcome,
        ...(vote.answers !== undefined ? { answers: vote.answers } : {}),
        link: { allowed: this.#o.allowLinkAnswers },
      });
    } catch (error) {
      if (!(error instanceof DaemonError)) throw error;
      return messagePage(503, "Not saved", "Your answer could not be saved. Try again.");
    }
    if (result.kind === "resolved") return answeredPage(view, answerText(vote, view));
    if (result.kind === "forbidden") return this.#refusedPage();
    if (result.kind === "invalid_option") {
      return messagePage(410, "No longer offered", "This choice is not offered any more.");
    }
    return this.#endedPage(await this.#find(cap));
  }

  #verify(token: string, address: string): { capability: LinkCapability } | { page: Page } {
    const now = this.#o.clock.now();
    if (this.#limiter.blocked(address, now)) {
      return {
        page: messagePage(
          429,
          "Too many attempts",
          "Too many invalid links from your address. Wait a few minutes.",
        ),
      };
    }
    const key = this.#o.key.current();
    const checked = key === undefined ? undefined : verifyCapability(key, token, Math.floor(now / 1000));
    if (checked?.ok) return { capability: checked.capability };
    this.#limiter.fail(address, now);
    const problem = checked?.problem ?? "bad_signature";
    return {
      page: messagePage(
        problem === "expired" ? 410 : 404,
        problem === "expired" ? "Expired" : "Invalid link",
        PROBLEM_TEXT[problem],
      ),
    };
  }

  async #find(cap: LinkCapability): Promise<Found> {
    const { sessions } = this.#o;
    const live = sessions.registry.get(cap.s);
    const request = live && sessions.mediator.pending(cap.s).find((p) => p.toolCall.toolCallId === cap.t);
    if (request) return { kind: "pending", request, view: viewOfToolCall(request.toolCall) };
    const cwd = sessions.workspace;
    const [records, journal] = await Promise.all([
      sessions.options.store.readRecords(cwd, cap.s, TRANSCRIPT_TAIL_RECORDS).catch(() => undefined),
      sessions.options.answerJournal.read(cwd, cap.s).catch(() => undefined),
    ]);
    const state =
      records === undefined ? { state: "absent" as const } : callStateInTranscript(records, cap.t);
    const view = state.state === "waiting" ? viewOfCall(state.call) : undefined;
    const first = journal && firstAnswer(journal.entries, cap, records ?? []);
    if (first !== undefined) return { kind: "answered", view, first };
    if (state.state === "answered") return { kind: "answered", view, first: {} };
    if (state.state === "waiting" && live === undefined) {
      const interaction = pendingInteractionKindOf(state.call.name);
      const restoreKind = interaction === undefined ? undefined : restoreKindCovering(interaction);
      return { kind: "on_disk", view: view as LinkView, restoreKind };
    }
    return { kind: "gone", live: live !== undefined };
  }

  #endedPage(found: Found): Page {
    if (found.kind === "answered") return alreadyAnsweredPage(found.view, found.first);
    return messagePage(
      410,
      "Not waiting",
      found.kind === "gone" && !found.live
        ? "This question is not waiting for an answer (the session or the question is gone)."
        : "This is not waiting for an answer any more.",
    );
  }

  #refusedPage(): Page {
    return messagePage(
      403,
      "Not allowed",
      `The daemon's permission policy (${this.#o.sessions.mediator.policy}) does not take answers from links. Answer in the web client, or start the daemon with --allow-link-answers.`,
    );
  }
}

/**
 * The first answer journaled for the call since it was last asked (its last occurrence in the transcript), not
 * withdrawn: the one that won.
 */
function firstAnswer(
  entries: readonly JournalEntry[],
  cap: LinkCapability,
  records: readonly TranscriptRecord[],
): FirstAnswer | undefined {
  let askedAt = Number.NEGATIVE_INFINITY;
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i] as TranscriptRecord;
    if ("message" in r && r.message.parts.some((p) => p.functionCall?.id === cap.t)) {
      askedAt = Date.parse(r.timestamp);
      break;
    }
  }
  const withdrawn = new Set(
    entries.flatMap((e) => (e.type === "withdrawn" && e.toolCallId === cap.t ? [e.requestId] : [])),
  );
  for (const e of entries) {
    if (e.type !== "answer" || e.sessionId !== cap.s || e.toolCallId !== cap.t || withdrawn.has(e.requestId))
      continue;
    if (!(Date.parse(e.at) >= askedAt)) continue;
    return {
      answer: answerText(e),
      ...(e.voterClientId !== undefined ? { by: e.voterClientId } : {}),
      at: e.at,
    };
  }
  return undefined;
}
