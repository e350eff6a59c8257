// docs/restore.md "How a restore runs", step 4 applied to a freshly restored session: admit the tracked restore prompt, or log why
// not. Never throws: restore is a best-effort side effect of a load that has already succeeded.
import {
  type Meta,
  PROMPT_ID_META_KEY,
  type RestoreKind,
  type RestoreKindName,
  RestoreKinds,
} from "@qwen-daemon/core/protocol";
import type { LiveSession } from "./live-session.js";
import { decideRestoreAdmission } from "./restore-admission.js";

export type RestorePromptInput<K extends string = RestoreKindName> = {
  session: LiveSession;
  /** `_meta` of the child's load/resume response (carries the hint). */
  responseMeta: Meta | null | undefined;
  /** The daemon's restore switches, per kind: a kind's hint is admitted only under its own switch. */
  switches: Readonly<Record<K, boolean>>;
  /** The X-Qwen-Client-Id the load came with (the "attached client" of the spec). */
  requestedClientId: string | undefined;
  /** The id the daemon minted for that client: the restore prompt's originator. */
  clientId: string;
  newId: () => string;
  log: (line: string) => void;
};

/** The rows {@link admitRestorePromptIn} reads: by default the contract's table; a test may pass more. */
export type HintRows<K extends string> = { readonly [P in K]: Pick<RestoreKind, "hintMetaKey" | "label"> };

/** The id of the restore prompt admitted, or undefined when none was. */
export function admitRestorePrompt(input: RestorePromptInput): string | undefined {
  return admitRestorePromptIn(RestoreKinds, input);
}

/** {@link admitRestorePrompt} over the rows `table`. */
export function admitRestorePromptIn<K extends string>(
  table: HintRows<K>,
  input: RestorePromptInput<K>,
): string | undefined {
  const { session, log } = input;
  // A batch is one kind's at most (questions only: the question hint; with an approval: the approvals hint).
  const kind = (Object.keys(table) as K[]).find((k) => input.responseMeta?.[table[k].hintMetaKey] === true);
  const decision = decideRestoreAdmission({
    hint: kind !== undefined,
    switchOn: kind !== undefined && input.switches[kind],
    requestedClientId: input.requestedClientId,
    activity: session.activity,
  });
  if (!decision.admit) {
    if (kind !== undefined)
      log(
        `qwen serve: restore of ${table[kind].label} refused for ${session.sessionId} (${decision.reason})`,
      );
    return undefined;
  }
  // Admitted means hinted: decideRestoreAdmission refuses a missing hint.
  if (kind === undefined) return undefined;
  const key = table[kind].hintMetaKey;
  const promptId = input.newId();
  try {
    session.queue.admit({
      promptId,
      kind: "restore",
      text: "",
      prompt: [],
      meta: { [key]: true, [PROMPT_ID_META_KEY]: promptId },
      // The client that loaded is the one who can answer (designated policy included).
      originatorClientId: input.clientId,
    });
    return promptId;
  } catch (error) {
    log(
      `qwen serve: restore prompt admission failed for ${session.sessionId}: ${error instanceof Error ? error.message : String(error)}`,
    );
    return undefined;
  }
}
