// The daemon's HTTP routes as small typed calls for tests. Each call returns the raw status and body, so a
// test can assert refusals too; the `expect...` variants throw with the daemon's answer when the status differs.
import type { DaemonProcess } from "./daemon-process.js";
import { SseClient } from "./sse-client.js";

export const CLIENT_ID_HEADER = "x-qwen-client-id";

export interface Attached {
  sessionId: string;
  clientId: string;
  attached: boolean;
  createdAt: string;
}

export interface Restored extends Attached {
  hasActivePrompt: boolean;
  compactedReplay?: ReplayEvent[];
  lastEventId: number;
  eventEpoch: string;
}

export interface ReplayEvent {
  id: number;
  type: string;
  data: { sessionId?: string; update?: Record<string, unknown> & { sessionUpdate?: string } };
}

export interface QuestionInteraction {
  requestId: string;
  kind: "user_question";
  title: string;
  questions: { question: string; header: string; answerKey: string; options: unknown[] }[];
  options: { optionId: string; label: string; kind: string }[];
}

export interface SessionStatus {
  sessionId: string;
  hasActivePrompt: boolean;
  isWaitingForPermission: boolean;
  isWaitingForUserQuestion: boolean;
  pendingInteractionCount: number;
  pendingInteractions: (QuestionInteraction | { requestId: string; kind: string })[];
  clientCount: number;
}

export type Response<T> = { status: number; body: T };

function clientHeader(clientId: string | undefined): Record<string, string> {
  return clientId === undefined ? {} : { [CLIENT_ID_HEADER]: clientId };
}

function expectStatus<T>(what: string, res: Response<T>, status: number): T {
  if (res.status !== status) {
    throw new Error(`${what}: expected HTTP ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body;
}

export async function createSession(
  daemon: DaemonProcess,
  body: Record<string, unknown> = {},
  clientId?: string,
): Promise<Attached> {
  return expectStatus(
    "POST /session",
    await daemon.json<Attached>("POST", "/session", body, clientHeader(clientId)),
    200,
  );
}

export function restoreSession(
  daemon: DaemonProcess,
  action: "load" | "resume",
  sessionId: string,
  clientId: string | undefined,
): Promise<Response<Restored>> {
  return daemon.json<Restored>("POST", `/session/${sessionId}/${action}`, {}, clientHeader(clientId));
}

export async function expectRestored(
  daemon: DaemonProcess,
  action: "load" | "resume",
  sessionId: string,
  clientId: string | undefined,
): Promise<Restored> {
  return expectStatus(
    `POST /session/:id/${action}`,
    await restoreSession(daemon, action, sessionId, clientId),
    200,
  );
}

export function postPrompt(
  daemon: DaemonProcess,
  sessionId: string,
  clientId: string | undefined,
  body: Record<string, unknown>,
): Promise<Response<{ promptId: string; messageId?: string; lastEventId: number; eventEpoch: string }>> {
  return daemon.json("POST", `/session/${sessionId}/prompt`, body, clientHeader(clientId));
}

/** POST /prompt with one text block; returns the promptId (asserts 202). */
export async function sendPrompt(
  daemon: DaemonProcess,
  sessionId: string,
  clientId: string | undefined,
  text: string,
): Promise<string> {
  const res = await postPrompt(daemon, sessionId, clientId, { prompt: [{ type: "text", text }] });
  return expectStatus("POST /session/:id/prompt", res, 202).promptId;
}

/** POST /session/:id/cancel; returns the response (204 expected, also when idle). */
export function cancelPrompt(
  daemon: DaemonProcess,
  sessionId: string,
  clientId: string | undefined,
): Promise<Response<Record<string, unknown>>> {
  return daemon.json("POST", `/session/${sessionId}/cancel`, {}, clientHeader(clientId));
}

export type ContinueAnswer = {
  accepted: boolean;
  interruption: string;
  promptId?: string;
  lastEventId: number;
  eventEpoch: string;
};

/** POST /session/:id/continue. */
export function continueSession(
  daemon: DaemonProcess,
  sessionId: string,
  clientId: string | undefined,
): Promise<Response<ContinueAnswer>> {
  return daemon.json<ContinueAnswer>("POST", `/session/${sessionId}/continue`, {}, clientHeader(clientId));
}

export async function getStatus(daemon: DaemonProcess, sessionId: string): Promise<SessionStatus> {
  return expectStatus(
    "GET /session/:id/status",
    await daemon.json<SessionStatus>("GET", `/session/${sessionId}/status`),
    200,
  );
}

/** Polls status until `pred` holds; throws with the last status after `timeoutMs`. */
export async function waitForStatus(
  daemon: DaemonProcess,
  sessionId: string,
  pred: (s: SessionStatus) => boolean,
  timeoutMs = 20_000,
): Promise<SessionStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await getStatus(daemon, sessionId);
    if (pred(status)) return status;
    if (Date.now() > deadline) throw new Error(`status never matched; last: ${JSON.stringify(status)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The single waiting question of a status (throws when there is not exactly one interaction). */
export function waitingQuestion(status: SessionStatus): QuestionInteraction {
  const [only, ...rest] = status.pendingInteractions;
  if (only === undefined || rest.length > 0 || only.kind !== "user_question") {
    throw new Error(`expected one waiting question, got ${JSON.stringify(status.pendingInteractions)}`);
  }
  return only as QuestionInteraction;
}

export type VoteBody =
  | { outcome: { outcome: "selected"; optionId: string }; answers?: Record<string, string> }
  | { outcome: { outcome: "cancelled" } };

export const submitAnswers = (answers: Record<string, string>): VoteBody => ({
  outcome: { outcome: "selected", optionId: "proceed_once" },
  answers,
});

export const cancelVote: VoteBody = { outcome: { outcome: "cancelled" } };

/** POST /session/:id/permission/:requestId; resolves `{status, body}` only, so tests can compare it whole. */
export async function vote(
  daemon: DaemonProcess,
  sessionId: string,
  requestId: string,
  clientId: string | undefined,
  body: VoteBody,
  baseUrl: string = daemon.url,
): Promise<Response<Record<string, unknown>>> {
  const { status, body: answer } = await daemon.jsonAt(
    baseUrl,
    "POST",
    `/session/${sessionId}/permission/${requestId}`,
    body,
    clientHeader(clientId),
  );
  return { status, body: answer };
}

/** Opens `GET /session/:id/events`, optionally from a cursor (`Last-Event-ID`). */
export function openEvents(
  daemon: DaemonProcess,
  sessionId: string,
  options: { lastEventId?: number } = {},
): Promise<SseClient> {
  const headers: Record<string, string> = { ...daemon.defaultHeaders };
  if (options.lastEventId !== undefined) headers["last-event-id"] = String(options.lastEventId);
  return new SseClient(`${daemon.url}/session/${sessionId}/events`, headers).open();
}
