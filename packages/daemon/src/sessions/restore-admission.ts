// docs/restore.md "How a restore runs", step 4, as pure decisions. The daemon admits a tracked restore prompt only when the
// child hinted it (`_meta["qwen.daemon.restoreAskUserQuestion"]` on the load/resume response) AND the
// daemon's own switch is on AND the request came with a client id AND the session is idle.
import {
  type Meta,
  type RestoreKind,
  type RestoreKindSwitches,
  RestoreKinds,
} from "@qwen-daemon/core/protocol";
import { isIdle, type SessionActivity } from "./session-state.js";

export type RestoreRefusal = "no_hint" | "switch_off" | "no_client" | "busy";

export type RestoreDecision = { admit: true } | { admit: false; reason: RestoreRefusal };

/**
 * The refusal the daemon already knows before asking the child, if any. When there is one, the
 * child-bound load/resume carries `qwen.daemon.suppressRestoreAskUserQuestion` so the child neither
 * hints nor leaves the question unfinalized in its replay (it is then repaired as failed, in step).
 */
export function knownRestoreRefusal(input: {
  switchOn: boolean;
  requestedClientId: string | undefined;
  activity: SessionActivity;
}): Exclude<RestoreRefusal, "no_hint"> | undefined {
  if (!input.switchOn) return "switch_off";
  if (input.requestedClientId === undefined) return "no_client";
  if (!isIdle(input.activity)) return "busy";
  return undefined;
}

/** The admission decision once the child's response is in. */
export function decideRestoreAdmission(input: {
  hint: boolean;
  switchOn: boolean;
  requestedClientId: string | undefined;
  activity: SessionActivity;
}): RestoreDecision {
  if (!input.hint) return { admit: false, reason: "no_hint" };
  const refusal = knownRestoreRefusal(input);
  return refusal === undefined ? { admit: true } : { admit: false, reason: refusal };
}

/** The rows {@link suppressMetaIn} reads: by default the contract's table; a test may pass more. */
export type SuppressRows<K extends string> = {
  readonly [P in K]: Pick<RestoreKind, "suppressMetaKey" | "suppressWithSwitchOff">;
};

/**
 * The suppress keys of a load/resume request: one per kind the daemon will refuse, sent with the kind's switch
 * on, or whatever the switch for a kind whose agents know the key without it (the row's `suppressWithSwitchOff`).
 */
export function suppressMeta(switches: RestoreKindSwitches, refused: RestoreKindSwitches): Meta | undefined {
  return suppressMetaIn(RestoreKinds, switches, refused);
}

/** {@link suppressMeta} over the rows `table`. */
export function suppressMetaIn<K extends string>(
  table: SuppressRows<K>,
  switches: Readonly<Record<K, boolean>>,
  refused: Readonly<Record<K, boolean>>,
): Meta | undefined {
  const meta: Meta = {};
  for (const kind of Object.keys(table) as K[]) {
    const row = table[kind];
    if (refused[kind] && (switches[kind] || row.suppressWithSwitchOff)) meta[row.suppressMetaKey] = true;
  }
  return Object.keys(meta).length > 0 ? meta : undefined;
}
