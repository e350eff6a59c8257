// The opening every restore test shares: a session, a prompt, the model's ask_user_question shown to the
// client (SSE permission_request and status), then optionally the crash (SIGKILL of daemon and children).
import type { DaemonProcess } from "./daemon-process.js";
import {
  createSession,
  getStatus,
  openEvents,
  type QuestionInteraction,
  type SessionStatus,
  sendPrompt,
  waitingQuestion,
} from "./session-api.js";
import type { SseClient, SseFrame } from "./sse-client.js";

/** Makes the e2e model (model-script.ts) ask its default question. */
export const DEFAULT_ASK_PROMPT = "ASK: which color for the button?";

export interface AskedQuestion {
  sessionId: string;
  clientId: string;
  promptId: string;
  /** requestId of the permission_request the daemon sent. */
  requestId: string;
  /** The model's tool call id (the fake server's `call_<request>_<n>`). */
  callId: string;
  permissionRequest: SseFrame;
  status: SessionStatus;
  question: QuestionInteraction;
  events: SseClient;
}

/** create → subscribe → prompt → wait for the question on SSE and in status. */
export async function askQuestion(
  daemon: DaemonProcess,
  promptText = DEFAULT_ASK_PROMPT,
): Promise<AskedQuestion> {
  const { sessionId, clientId } = await createSession(daemon);
  const events = await openEvents(daemon, sessionId);
  const promptId = await sendPrompt(daemon, sessionId, clientId, promptText);
  const permissionRequest = await events.waitForEvent("permission_request");
  const data = permissionRequest.json?.data as { requestId: string; toolCall: { toolCallId: string } };
  // The permission_request is published before status is asked here, so status must already show it.
  const status = await getStatus(daemon, sessionId);
  return {
    sessionId,
    clientId,
    promptId,
    requestId: data.requestId,
    callId: data.toolCall.toolCallId,
    permissionRequest,
    status,
    question: waitingQuestion(status),
    events,
  };
}

/** askQuestion, then the crash: SSE closed, daemon and all its descendants SIGKILLed at once. */
export async function askQuestionThenCrash(
  daemon: DaemonProcess,
  promptText?: string,
): Promise<AskedQuestion> {
  const asked = await askQuestion(daemon, promptText);
  await asked.events.close();
  await daemon.kill9();
  return asked;
}
