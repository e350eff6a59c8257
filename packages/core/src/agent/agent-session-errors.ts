// Why an AgentSession refuses a call.
/** A prompt arrived while another one runs in the same session. */
export class SessionBusyError extends Error {
  override readonly name = "SessionBusyError";
  constructor(readonly sessionId: string) {
    super(`Session ${sessionId} is already running a prompt; wait for it to end (the host queues prompts).`);
  }
}

export class SessionClosedError extends Error {
  override readonly name = "SessionClosedError";
  constructor(readonly sessionId: string) {
    super(`Session ${sessionId} is closed.`);
  }
}

/** The session already has a transcript; load it instead of creating it anew. */
export class SessionExistsError extends Error {
  override readonly name = "SessionExistsError";
  constructor(readonly sessionId: string) {
    super(`Session ${sessionId} already has a transcript.`);
  }
}
