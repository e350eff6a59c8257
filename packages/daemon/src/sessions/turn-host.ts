// How a session's prompt queue runs a turn on the child: echo the prompt, send session/prompt, stop it
// on cancel, and record the outcome for status. The queue decides *when*; this decides *how*.

import { DaemonEventType, metaString, USER_MESSAGE_ID_META_KEY } from "@qwen-daemon/core/protocol";
import type { ChildConnection } from "../bridge/child-connection.js";
import { ChildGoneError } from "../bridge/child-connection.js";
import type { Clock } from "../events/clock.js";
import type { DaemonEventExtra } from "../events/daemon-event.js";
import type { SessionEventBus } from "../events/event-bus.js";
import type { PermissionMediator } from "../permission/mediator.js";
import { turnErrorFromChild } from "./child-errors.js";
import { echoedContent } from "./prompt-echo.js";
import type { PromptQueueHost, QueuedPrompt, TurnOutcome } from "./prompt-queue.js";

export type TurnHostDeps = {
  mediator: PermissionMediator;
  clock: Clock;
  log: (line: string) => void;
  /** The agent answered a client's prompt (its turn ran): the prompt journal closes it. Never rejects. */
  settled: (entry: QueuedPrompt) => Promise<void>;
};

/** The part of a live session (live-session.ts) its turns run on and record into. */
export type TurnSession = {
  readonly sessionId: string;
  readonly child: ChildConnection;
  readonly bus: SessionEventBus;
  turnStarted(entry: QueuedPrompt): void;
  turnEnded(outcome: TurnOutcome, now: number): void;
};

export function turnHost(
  session: TurnSession,
  deps: TurnHostDeps,
): Pick<PromptQueueHost, "dispatch" | "interrupt" | "onTurnEnd"> {
  const { mediator, clock, log } = deps;
  return {
    async dispatch(entry) {
      session.turnStarted(entry);
      if (entry.kind === "user") echoPrompt(session, entry, clock.now());
      let outcome: TurnOutcome;
      try {
        const result = await session.child.prompt(session.sessionId, entry.prompt, entry.meta);
        outcome = {
          kind: "complete",
          stopReason: typeof result.stopReason === "string" ? result.stopReason : "end_turn",
        };
      } catch (error) {
        // The child died with it: whether it started is the agent's ledger's to say (at the next load).
        if (error instanceof ChildGoneError) return turnErrorFromChild(error);
        outcome = turnErrorFromChild(error);
      }
      if (entry.kind === "user") await deps.settled(entry);
      return outcome;
    },
    interrupt(entry) {
      // session/cancel first, then the prompt's outstanding permission requests answered `cancelled` (ACP).
      // The notification is queued on the connection synchronously, so it reaches the child before any of
      // those answers: the child sees its turn aborted and does not read the answer as the user's Cancel
      // (which the reference daemon also sends as `agent_cancelled`).
      session.child.cancel(session.sessionId).catch((error: unknown) => {
        log(`qwen serve: session/cancel for ${session.sessionId} failed: ${String(error)}`);
      });
      mediator.cancelPrompt(session.sessionId, entry.promptId, "agent_cancelled");
    },
    onTurnEnd(entry, outcome: TurnOutcome) {
      session.turnEnded(outcome, clock.now());
      // A request the agent left open past its turn can no longer be answered usefully.
      mediator.cancelPrompt(session.sessionId, entry.promptId, "agent_cancelled");
    },
  };
}

/** Each prompt block is echoed as a `user_message_chunk` so every client sees what was asked (huge ones clipped). */
function echoPrompt(session: TurnSession, entry: QueuedPrompt, now: number): void {
  // The id the agent saves the message under (live-session.ts sets it), so the echo matches a later replay.
  const messageId = metaString(entry.meta, USER_MESSAGE_ID_META_KEY);
  for (const block of entry.prompt) {
    const { content, truncated } = echoedContent(block);
    session.bus.emit(
      DaemonEventType.sessionUpdate,
      {
        sessionId: session.sessionId,
        // `_meta` as the reference daemon's echo carries it, so clients can tell an echo from a replay.
        update: {
          sessionUpdate: "user_message_chunk",
          content,
          ...(messageId !== undefined ? { messageId } : {}),
          _meta: {
            serverTimestamp: now,
            source: "bridge-echo",
            ...(truncated !== undefined ? { truncated } : {}),
          },
        },
      },
      promptEnvelope(entry),
    );
  }
}

/** The event envelope of everything a prompt causes: its id and the client that sent it. */
export function promptEnvelope(entry: QueuedPrompt): DaemonEventExtra {
  return {
    promptId: entry.promptId,
    ...(entry.originatorClientId !== undefined ? { originatorClientId: entry.originatorClientId } : {}),
  };
}
