// docs/restore.md "How a restore runs", step 4 applied to a freshly restored session: admit the tracked restore prompt, or log why
// not. Never throws: restore is a best-effort side effect of a load that has already succeeded.
import {
  type Meta,
  PROMPT_ID_META_KEY,
  RESTORE_KIND_NAMES,
  type RestoreKindName,
  type RestoreKindSwitches,
  RestoreKinds,
} from "@qwen-daemon/core/protocol";
import type { LiveSession } from "./live-session.js";
import { decideRestoreAdmission } from "./restore-admission.js";

export type RestorePromptInput = {
  session: LiveSession;
  /** `_meta` of the child's load/resume response (carries the hint). */
  responseMeta: Meta | null | undefined;
  /** The daemon's restore switches, per kind: a kind's hint is admitted only under its own switch. */
  switches: Readonly<RestoreKindSwitches>;
  /** The X-Qwen-Client-Id the load came with (the "attached client" of the spec). */
  requestedClientId: string | undefined;
  /** The id the daemon minted for that client: the restore prompt's originator. */
  clientId: string;
  newId: () => string;
  log: (line: string) => void;
};

/** What the log calls each kind's restore (one per row of the table). */
const LOG_NAME: Readonly<Record<RestoreKindName, string>> = {
  question: "ask_user_question",
  approvals: "pending approvals",
};

/** The id of the restore prompt admitted, or undefined when none was. */
export function admitRestorePrompt(input: RestorePromptInput): string | undefined {
  const { session, log } = input;
  // A batch holds questions only (the question hint) or an approval (the approvals hint), never both.
  const kind = RESTORE_KIND_NAMES.find((k) => input.responseMeta?.[RestoreKinds[k].hintMetaKey] === true);
  const decision = decideRestoreAdmission({
    hint: kind !== undefined,
    switchOn: kind !== undefined && input.switches[kind],
    requestedClientId: input.requestedClientId,
    activity: session.activity,
  });
  if (!decision.admit) {
    if (kind !== undefined)
      log(`qwen serve: restore of ${LOG_NAME[kind]} refused for ${session.sessionId} (${decision.reason})`);
    return undefined;
  }
  // Admitted means hinted: decideRestoreAdmission refuses a missing hint.
  if (kind === undefined) return undefined;
  const key = RestoreKinds[kind].hintMetaKey;
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
