// POST /session/:id/load and /resume: opening a session. A live session is attached to (no child call).
// Otherwise the child opens it from disk; for a load, the history it replays becomes `compactedReplay` (ids 1..n). Then step 4 of
// docs/restore.md "How a restore runs" decides whether to admit a tracked restore prompt. Both carry `promptTerminals` from the session's
// prompt ledger (the reference daemon adds them to loads only; docs/protocol.md has resume answer like load, and a
// resuming client may as well have been waiting for a prompt).
import {
  classifyRestoreTail,
  type LedgerEntry,
  pendingApprovalsFromRecords,
  type RestoreTail,
  trailingQuestionCalls,
} from "@qwen-daemon/core";
import {
  type Meta,
  type OpenSessionResponse,
  type PromptTerminal,
  RESTORE_KIND_NAMES,
  type RestoreKindSwitches,
  type RestoreReport,
} from "@qwen-daemon/core/protocol";
import { sessionOwnedElsewhere } from "../errors/domain-errors.js";
import type { PersistedSession } from "../persisted/session-store.js";
import { promptTerminalsOf } from "../prompts/prompt-terminals.js";
import { TRANSCRIPT_TAIL_RECORDS } from "./answer-replay.js";
import { journaledAnswersMeta } from "./answers-for-load.js";
import { configOptionsOf, errorFromChild } from "./child-errors.js";
import { recreateJournaledSession } from "./journaled-session.js";
import type { LiveSession } from "./live-session.js";
import { closeOpenPromptsAtLoad, reportedNeverStarted } from "./prompt-journaling.js";
import { reopenReplayedCalls } from "./replay-reopen.js";
import { knownRestoreRefusal, suppressMeta } from "./restore-admission.js";
import { admitRestorePrompt } from "./restore-prompt.js";
import { ALL_RESTORE_SWITCHES, restoreReportOf } from "./restore-report.js";
import type { Sessions } from "./sessions.js";

export type OpenAction = "load" | "resume";

/** The answer of load and resume (the contract's OpenSessionResponse). */
export type OpenResult = OpenSessionResponse;

/** `sessionId` is well formed and `cwd` the daemon's workspace (the route checked both). */
export async function openSession(
  sessions: Sessions,
  action: OpenAction,
  sessionId: string,
  cwd: string,
  requestedClientId: string | undefined,
): Promise<OpenResult> {
  // One open of a session at a time, a live one's re-check included: two would reload it in the child
  // at once, and requests that read its history (/continue) wait for them.
  // Checked again after every wait, and tracked with no await in between, so two loads never both pass.
  for (let inFlight = sessions.registry.openInFlight(sessionId); inFlight !== undefined; ) {
    await inFlight.then(noop, noop);
    inFlight = sessions.registry.openInFlight(sessionId);
  }
  const live = sessions.registry.get(sessionId);
  const work =
    live !== undefined
      ? openLive(sessions, action, live, cwd, requestedClientId)
      : openFromChild(sessions, action, sessionId, cwd, requestedClientId);
  return sessions.registry.trackOpen(sessionId, work);
}

async function openLive(
  sessions: Sessions,
  action: OpenAction,
  live: LiveSession,
  cwd: string,
  requestedClientId: string | undefined,
): Promise<OpenResult> {
  const attached = attachForOpen(action, live, requestedClientId, false);
  const restore = await restoreOnLiveSession(sessions, live, cwd, requestedClientId, attached.clientId);
  return withPromptTerminals(
    {
      ...attached,
      // The re-check may have reopened the re-asked question in the replay.
      ...(action === "load" ? { compactedReplay: [...live.replay] } : {}),
      hasActivePrompt: attached.hasActivePrompt || restore.admitted !== undefined,
      ...(restore.report !== undefined ? { restore: restore.report } : {}),
    },
    await readPromptTerminals(sessions, cwd, live.sessionId, "live"),
  );
}

function attachForOpen(
  action: OpenAction,
  session: LiveSession,
  requested: string | undefined,
  fromDisk: boolean,
): OpenResult {
  return {
    ...session.attach(requested, fromDisk),
    hasActivePrompt: session.hasActivePrompt,
    ...(action === "load" ? { compactedReplay: [...session.replay] } : {}),
    lastEventId: session.historyLastEventId,
    eventEpoch: session.bus.epoch,
  };
}

/**
 * A live, idle session can still end in an unanswered question: it was loaded without a client id (nobody
 * to ask then), or its re-asked question ended unattended (a prompt cancel). A later load or resume with a
 * client id asks the child again (a resume: it re-reads the session from disk, no replay) and admits the
 * restore on its hint, so the question is never stuck until the daemon restarts. Best effort, like every
 * restore: a failure is logged and the attach stands. A session with no history in the child (created here,
 * never prompted) cannot hold a question and is not reloaded: a child may have nothing on disk to reload it
 * from, and one that refused would leave the daemon with a session its child no longer has.
 */
async function restoreOnLiveSession(
  sessions: Sessions,
  session: LiveSession,
  cwd: string,
  requestedClientId: string | undefined,
  clientId: string,
): Promise<{ admitted?: string; report?: RestoreReport }> {
  const { log } = sessions.options;
  const refused = knownRefusals(sessions, requestedClientId, session.activity);
  if (RESTORE_KIND_NAMES.every((kind) => refused[kind])) return {};
  if (!session.hasHistory || sessions.mediator.hasPending(session.sessionId) || !session.child.alive)
    return {};
  let response: { _meta?: Meta | null };
  try {
    response = await session.child.resumeSession(
      session.sessionId,
      cwd,
      await answersForChild(sessions, cwd, session.sessionId),
    );
  } catch (error) {
    log(`qwen serve: re-checking ${session.sessionId} for a question to restore failed: ${String(error)}`);
    return {};
  }
  if (session.state !== "live") return {};
  const tail = await readRestoreTail(sessions, cwd, session.sessionId);
  const activity = session.activity;
  const admitted = admitRestorePrompt({
    session,
    responseMeta: response._meta,
    switches: sessions.switches,
    requestedClientId,
    clientId,
    newId: sessions.newId,
    log,
  });
  if (admitted !== undefined) await reopenRestoredCalls(sessions, session, cwd);
  const report = reportOf(sessions, tail, requestedClientId, activity, admitted);
  return { ...(admitted !== undefined ? { admitted } : {}), ...(report !== undefined ? { report } : {}) };
}

/**
 * The replay this live session was first loaded with closed its trailing question as failed (nobody was
 * there to ask); now that it is asked again, the replay shows it in progress (reopenReplayedCalls). The
 * question's call ids come from the transcript tail, as the child's restore scan sees it.
 */
async function reopenRestoredCalls(sessions: Sessions, session: LiveSession, cwd: string): Promise<void> {
  if (session.replay.length === 0) return;
  let records: Awaited<ReturnType<Sessions["store"]["readRecords"]>>;
  try {
    records = await sessions.store.readRecords(cwd, session.sessionId, TRANSCRIPT_TAIL_RECORDS);
  } catch (error) {
    sessions.options.log(
      `qwen serve: reading the transcript tail of ${session.sessionId} failed: ${String(error)}`,
    );
    return;
  }
  const calls = [
    ...trailingQuestionCalls(records ?? []),
    ...(pendingApprovalsFromRecords(records ?? [], { includeQuestions: true })?.reAsk ?? []),
  ];
  const ids = new Set(calls.flatMap((call) => (call.id ? [call.id] : [])));
  session.replaceReplay(reopenReplayedCalls(session.replay, ids));
}

/**
 * Whether the daemon already knows, before the child answers, that it will refuse a restore of each kind
 * (the switch is off, no client id, the session is busy): per kind, since each has its own switch.
 */
function knownRefusals(
  sessions: Sessions,
  requestedClientId: string | undefined,
  activity: LiveSession["activity"],
): RestoreKindSwitches {
  const switches = sessions.switches;
  const refused = {} as RestoreKindSwitches;
  for (const kind of RESTORE_KIND_NAMES)
    refused[kind] =
      knownRestoreRefusal({ switchOn: switches[kind], requestedClientId, activity }) !== undefined;
  return refused;
}

/**
 * Shared storage: the session's lease, taken before the agent reads anything. Refused while another daemon's
 * lease is live (409 naming it); taken over once it ran out, and the load goes on exactly as after a local
 * crash: everything the other daemon acknowledged is in the same store.
 */
async function takeLease(sessions: Sessions, sessionId: string, cwd: string): Promise<void> {
  const { leases, log } = sessions.options;
  if (leases === undefined) return;
  const taken = await leases.acquire({ cwd, sessionId });
  if (!taken.acquired) throw sessionOwnedElsewhere(sessionId, taken.lease.ownerUrl);
  sessions.regained(sessionId);
  if (taken.tookOver) log(`qwen serve: took session ${sessionId} over (epoch ${taken.epoch})`);
}

async function openFromChild(
  sessions: Sessions,
  action: OpenAction,
  sessionId: string,
  cwd: string,
  requestedClientId: string | undefined,
): Promise<OpenResult> {
  await takeLease(sessions, sessionId, cwd);
  const release = sessions.registry.reserve();
  let session: LiveSession | undefined;
  try {
    const child = await sessions.children.ensure();
    session = sessions.newSession(sessionId, cwd, child);
    sessions.registry.addOpening(session);
    const refused = knownRefusals(sessions, requestedClientId, session.activity);
    const meta = withMeta(
      suppressMeta(sessions.switches, refused),
      await answersForChild(sessions, cwd, sessionId),
    );
    let response: { _meta?: Meta | null; configOptions?: unknown };
    let origin: "loaded" | "recreated" = "loaded";
    try {
      response =
        action === "load"
          ? await child.loadSession(sessionId, cwd, meta)
          : await child.resumeSession(sessionId, cwd, meta);
    } catch (error) {
      const refused = errorFromChild(error, sessionId);
      if (
        refused.code !== "session_not_found" ||
        !(await recreateJournaledSession(sessions.options, child, cwd, sessionId))
      )
        throw refused;
      response = {};
      origin = "recreated";
    }
    // Read after the child's load: a load that repairs the session closes its dead prompts in the ledger
    // (daemon_lost) before answering. Read before the restore prompt is admitted, so an original prompt
    // that the restore is about to take over is reported (by its absence) the same way every time.
    const [persisted, terminals, tail] = await Promise.all([
      readPersistedSession(sessions, cwd, sessionId),
      readPromptTerminals(sessions, cwd, sessionId, origin),
      readRestoreTail(sessions, cwd, sessionId),
    ]);
    if (session.state !== "opening") throw errorFromChild(new Error("the agent process ended"), sessionId);
    session.configOptions = configOptionsOf(response);
    session.opened({ persisted, replay: action === "load" });
    sessions.registry.promote(session);
    release();
    const result = attachForOpen(action, session, requestedClientId, true);
    const activity = session.activity;
    const admitted = admitRestorePrompt({
      session,
      responseMeta: response._meta,
      switches: sessions.switches,
      requestedClientId,
      clientId: result.clientId,
      newId: sessions.newId,
      log: sessions.options.log,
    });
    const restore = reportOf(sessions, tail, requestedClientId, activity, admitted);
    return withPromptTerminals(
      {
        ...result,
        hasActivePrompt: result.hasActivePrompt || admitted !== undefined,
        ...(restore !== undefined ? { restore } : {}),
      },
      terminals,
    );
  } catch (error) {
    session?.discard();
    // The lease taken for a load that failed (no such session, say) is let go, not kept renewed.
    await sessions.options.leases?.release({ cwd, sessionId }).catch((releaseError: unknown) => {
      sessions.options.log(`qwen serve: releasing the lease of ${sessionId} failed: ${String(releaseError)}`);
    });
    throw error;
  } finally {
    release();
  }
}

/**
 * How the transcript ends after the agent's load (before a restore prompt writes anything), by the one rule
 * (history/restore-tail.ts) with every switch on; undefined when it cannot be read (logged): the load goes on,
 * without the report.
 */
async function readRestoreTail(
  sessions: Sessions,
  cwd: string,
  sessionId: string,
): Promise<RestoreTail | undefined> {
  try {
    const records = await sessions.store.readRecords(cwd, sessionId, TRANSCRIPT_TAIL_RECORDS);
    return records === undefined ? undefined : classifyRestoreTail(records, ALL_RESTORE_SWITCHES);
  } catch (error) {
    sessions.options.log(`qwen serve: reading the transcript tail of ${sessionId} failed: ${String(error)}`);
    return undefined;
  }
}

function reportOf(
  sessions: Sessions,
  tail: RestoreTail | undefined,
  requestedClientId: string | undefined,
  activity: LiveSession["activity"],
  admittedPromptId: string | undefined,
): RestoreReport | undefined {
  if (tail === undefined) return undefined;
  return restoreReportOf({
    tail,
    switches: sessions.switches,
    requestedClientId,
    activity,
    admittedPromptId,
  });
}

/** Journaled answers for the child to close a batch it will not re-ask with (switch on only, as every restore). */
function answersForChild(sessions: Sessions, cwd: string, sessionId: string): Promise<Meta | undefined> {
  if (!sessions.options.restoreAskUserQuestion) return Promise.resolve(undefined);
  const deps = { journal: sessions.options.answerJournal, store: sessions.store, log: sessions.options.log };
  return journaledAnswersMeta(deps, cwd, sessionId);
}

function withMeta(...parts: (Meta | undefined)[]): Meta | undefined {
  const merged = Object.assign({}, ...parts.filter((p) => p !== undefined)) as Meta;
  return Object.keys(merged).length > 0 ? merged : undefined;
}

/**
 * The recent prompt terminals on disk: the agent's ledger, and the prompts this daemon accepted that the agent
 * never started (its prompt journal). On a load from disk the journal's open prompts are judged first
 * (prompt-journaling.ts; a session the agent had to create again started none); a live session's are still
 * queued here and are not. A ledger that cannot be
 * read costs the client this hint, not the load it asked for (the reference reads it the same way): logged,
 * and only the journal's report is given.
 */
async function readPromptTerminals(
  sessions: Sessions,
  cwd: string,
  sessionId: string,
  origin: "live" | "loaded" | "recreated",
): Promise<PromptTerminal[] | undefined> {
  let ledger: LedgerEntry[] | undefined;
  try {
    ledger = await sessions.store.readPromptLedger(cwd, sessionId);
  } catch (error) {
    sessions.options.log(`qwen serve: reading the prompt ledger of ${sessionId} failed: ${String(error)}`);
  }
  const neverStarted =
    origin !== "live" && ledger !== undefined
      ? await closeOpenPromptsAtLoad(sessions.options, cwd, sessionId, ledger, origin === "recreated")
      : await reportedNeverStarted(sessions.options, cwd, sessionId);
  return promptTerminalsOf(ledger ?? [], neverStarted);
}

/** What the transcript says about a session being opened (undefined when unreadable: logged). */
async function readPersistedSession(
  sessions: Sessions,
  cwd: string,
  sessionId: string,
): Promise<PersistedSession | undefined> {
  try {
    return await sessions.store.get(cwd, sessionId);
  } catch (error) {
    sessions.options.log(
      `qwen serve: reading the transcript summary of ${sessionId} failed: ${String(error)}`,
    );
    return undefined;
  }
}

function withPromptTerminals(result: OpenResult, terminals: PromptTerminal[] | undefined): OpenResult {
  return terminals === undefined ? result : { ...result, promptTerminals: terminals };
}

function noop(): void {}
