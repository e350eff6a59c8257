// What a load or resume tells its client about the end of the session's transcript after a crash (the
// `restore` field, docs/protocol.md "Sessions"): which kind of end it found (history/restore-tail.ts, the one
// rule, read with every switch on so that an end this daemon will not act on is still named) and what the
// load did about it. Pure.
import type { RestoreTail } from "@qwen-daemon/core";
import {
  kindSwitchesOf,
  RESTORE_KIND_NAMES,
  RESTORE_KINDS,
  type RestoreKindSwitches,
  type RestoreReport,
} from "@qwen-daemon/core/protocol";
import { knownRestoreRefusal } from "./restore-admission.js";
import type { SessionActivity } from "./session-state.js";

/** Every switch on: the tail as it is, whatever this daemon lets a load do with it. */
export const ALL_RESTORE_SWITCHES: RestoreKindSwitches = kindSwitchesOf(
  Object.fromEntries(RESTORE_KINDS.map((kind) => [kind.switch, true])),
);

export function restoreReportOf(input: {
  /** The tail, classified with {@link ALL_RESTORE_SWITCHES} (after the agent's load, before the restore runs). */
  tail: RestoreTail;
  /** This daemon's switches. */
  switches: RestoreKindSwitches;
  requestedClientId: string | undefined;
  activity: SessionActivity;
  /** The restore prompt admitted for the session, if any. */
  admittedPromptId: string | undefined;
}): RestoreReport | undefined {
  const { tail } = input;
  let kind: RestoreReport["tail"];
  let needs: RestoreKindSwitches;
  switch (tail.kind) {
    case "restorable_question":
      kind = "user_question";
      needs = { question: true, approvals: false };
      break;
    case "restorable_approvals":
      kind = "pending_approvals";
      needs = { question: tail.found.calls.some((c) => c.kind === "user_question"), approvals: true };
      break;
    case "answered_unseen":
      kind = "answered";
      needs = tail.needs;
      break;
    default:
      return undefined;
  }
  if (input.admittedPromptId !== undefined) {
    const action = kind === "answered" ? "continued" : "asked_again";
    return { tail: kind, action, promptId: input.admittedPromptId };
  }
  const switchOn = RESTORE_KIND_NAMES.every((k) => !needs[k] || input.switches[k]);
  const refusal = knownRestoreRefusal({
    switchOn,
    requestedClientId: input.requestedClientId,
    activity: input.activity,
  });
  return { tail: kind, action: "not_restored", reason: refusal ?? "not_offered" };
}
