// Typed views of the daemon's SSE frames (docs/protocol.md "Events"): the `data` of a frame, the ACP session
// updates it relays, and the texts a user would see. A frame without the expected data throws, so a test
// fails with the frame in the message instead of comparing `undefined`.
import type { SseClient, SseFrame } from "./sse-client.js";

export interface SessionUpdate {
  sessionUpdate: string;
  toolCallId?: string;
  status?: string;
  content?: unknown;
  [key: string]: unknown;
}

export interface PermissionRequestData {
  requestId: string;
  sessionId: string;
  toolCall: { toolCallId: string; title: string; _meta?: Record<string, unknown> };
  options: { optionId: string; name: string; kind: string }[];
}

/** The `data` object of a daemon event frame. */
export function dataOf<T = Record<string, unknown>>(frame: SseFrame | undefined): T {
  const data = frame?.json?.data;
  if (data === undefined || data === null || typeof data !== "object") {
    throw new Error(`SSE frame without a data object: ${frame?.raw}`);
  }
  return data as T;
}

export const requestIdOf = (frame: SseFrame | undefined): string =>
  dataOf<{ requestId: string }>(frame).requestId;

export function permissionRequestOf(frame: SseFrame | undefined): PermissionRequestData {
  return dataOf<PermissionRequestData>(frame);
}

/** Every `session_update` the client received, as the ACP update objects. */
export function sessionUpdates(events: SseClient): SessionUpdate[] {
  return events.events("session_update").map((f) => dataOf<{ update: SessionUpdate }>(f).update);
}

function chunkTexts(events: SseClient, kind: string): string[] {
  return sessionUpdates(events)
    .filter((u) => u.sessionUpdate === kind)
    .map((u) => (u.content as { text?: string } | undefined)?.text ?? "");
}

/** The agent's streamed text, concatenated. */
export const agentText = (events: SseClient): string => chunkTexts(events, "agent_message_chunk").join("");

/** The user messages the daemon echoed (one entry per chunk). */
export const userEchoes = (events: SseClient): string[] => chunkTexts(events, "user_message_chunk");
