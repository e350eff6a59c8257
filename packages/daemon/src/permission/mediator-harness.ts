// Test support for the mediator's suites (not exported from the package).
import type { PermissionOption } from "@qwen-daemon/core/protocol";
import type { DaemonEventExtra } from "../events/daemon-event.js";
import { ManualClock } from "../events/manual-clock.js";
import { PermissionMediator, type PermissionMediatorOptions, type PermissionRequest } from "./mediator.js";

export type Emitted = {
  sessionId: string;
  type: string;
  data: Record<string, unknown>;
  extra?: DaemonEventExtra;
};

export const QUESTION_OPTIONS: PermissionOption[] = [
  { optionId: "proceed_once", name: "Submit", kind: "allow_once" },
  { optionId: "cancel", name: "Cancel", kind: "reject_once" },
];

export const TOOL_OPTIONS: PermissionOption[] = [
  { optionId: "allow", name: "Allow", kind: "allow_once" },
  { optionId: "always", name: "Always allow", kind: "allow_always" },
  { optionId: "deny", name: "Deny", kind: "reject_once" },
];

export function makeMediator(options: Omit<PermissionMediatorOptions, "emit" | "clock"> = {}) {
  const clock = new ManualClock(1_000);
  const events: Emitted[] = [];
  const mediator = new PermissionMediator({
    ...options,
    clock,
    emit: (sessionId, type, data, extra) =>
      events.push({ sessionId, type, data, ...(extra ? { extra } : {}) }),
  });
  const ofType = (type: string) => events.filter((e) => e.type === type);
  return { mediator, clock, events, ofType };
}

export function req(overrides: Partial<PermissionRequest> = {}): PermissionRequest {
  return {
    sessionId: "s1",
    requestId: "r1",
    toolCall: { toolCallId: "call-1", title: "Run ls", kind: "execute" },
    options: TOOL_OPTIONS,
    originatorClientId: "client_a",
    attachedClientIds: ["client_a"],
    ...overrides,
  };
}

/** Settled value of `p` if it settled within the current microtask drain, else "pending". */
export async function peek<T>(p: Promise<T>): Promise<T | "pending"> {
  const marker = Symbol("pending");
  const result = await Promise.race([p, new Promise<symbol>((r) => setImmediate(() => r(marker)))]);
  return result === marker ? "pending" : (result as T);
}
