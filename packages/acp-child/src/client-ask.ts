// The one place that puts a question to the client and waits (a permission request or a form elicitation).
// It never waits on anything but this one request (sessions never block each other) and never throws: a
// failure, a malformed answer, a cancelled prompt and a lost connection each become an outcome.
import type { AgentContext } from "@agentclientprotocol/sdk";
import { type ConfirmationOutcome, unattendedReasonOf } from "@qwen-daemon/core";

export interface AskClientOptions {
  /** The turn's signal: a cancelled prompt stops waiting at once (and tells the client). */
  signal: AbortSignal;
  /** The connection's signal: a closed connection means nobody can answer any more. */
  connectionSignal: AbortSignal;
  log: (message: string) => void;
}

/** How an answer reads: the outcome, and whether the client said "cancelled" (which may be a prompt cancel). */
export type ReadAnswer = (raw: unknown) => { outcome: ConfirmationOutcome; cancelled: boolean } | undefined;

/**
 * Sends `method` and maps the answer with `read` (undefined = malformed, treated as declined). `what` names
 * the request in log lines.
 */
export async function askThroughClient(
  client: AgentContext,
  request: { method: string; params: unknown; what: string },
  read: ReadAnswer,
  options: AskClientOptions,
): Promise<ConfirmationOutcome> {
  const { signal, connectionSignal, log } = options;
  if (signal.aborted) return abandoned(signal);
  let raw: unknown;
  try {
    raw = await client.request(request.method, request.params, {
      cancellationSignal: signal,
      stopWaitingOnCancel: true,
    });
  } catch (error) {
    if (signal.aborted) return abandoned(signal);
    if (connectionSignal.aborted) return { outcome: "unattended", reason: "session_closed" };
    log(`${request.what} failed; treating it as declined: ${describeError(error)}`);
    return { outcome: "rejected" };
  }
  if (signal.aborted) return abandoned(signal);
  const answer = read(raw);
  if (!answer) {
    log(`malformed answer to ${request.what}; treating it as declined`);
    return { outcome: "rejected" };
  }
  if (answer.cancelled) {
    // ACP: after session/cancel the client answers outstanding requests with a cancel, and our daemon
    // writes session/cancel first. The SDK runs a notification's handler some microtasks after it reads it,
    // so a response read right behind it can resolve first; one macrotask lets the cancel land, so a
    // prompt cancel is not mistaken for the user's decline.
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (signal.aborted) return abandoned(signal);
  }
  return answer.outcome;
}

/** The prompt was aborted while asking: nobody's answer (a session close, or a prompt cancel). */
function abandoned(signal: AbortSignal): ConfirmationOutcome {
  return { outcome: "unattended", reason: unattendedReasonOf(signal) };
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : JSON.stringify(error);
}
