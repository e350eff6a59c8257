// RESTORE-SPEC step 4 applied to a freshly restored session: admit the tracked restore prompt, or log why
// not. Never throws: restore is a best-effort side effect of a load that has already succeeded.
import {
  type Meta,
  PROMPT_ID_META_KEY,
  RESTORE_ASK_USER_QUESTION_META_KEY,
} from "@qwen-daemon/core/protocol";
import type { LiveSession } from "./live-session.js";
import { decideRestoreAdmission } from "./restore-admission.js";

export type RestorePromptInput = {
  session: LiveSession;
  /** `_meta` of the child's load/resume response (carries the hint). */
  responseMeta: Meta | null | undefined;
  switchOn: boolean;
  /** The X-Qwen-Client-Id the load came with (the "attached client" of the spec). */
  requestedClientId: string | undefined;
  /** The id the daemon minted for that client: the restore prompt's originator. */
  clientId: string;
  newId: () => string;
  log: (line: string) => void;
};

/** True when a restore prompt was admitted. */
export function admitRestorePrompt(input: RestorePromptInput): boolean {
  const { session, log } = input;
  const hint = input.responseMeta?.[RESTORE_ASK_USER_QUESTION_META_KEY] === true;
  const decision = decideRestoreAdmission({
    hint,
    switchOn: input.switchOn,
    requestedClientId: input.requestedClientId,
    activity: session.activity,
  });
  if (!decision.admit) {
    if (hint)
      log(`qwen serve: restore of ask_user_question refused for ${session.sessionId} (${decision.reason})`);
    return false;
  }
  const promptId = input.newId();
  try {
    session.queue.admit({
      promptId,
      kind: "restore",
      text: "",
      prompt: [],
      meta: { [RESTORE_ASK_USER_QUESTION_META_KEY]: true, [PROMPT_ID_META_KEY]: promptId },
      // The client that loaded is the one who can answer (designated policy included).
      originatorClientId: input.clientId,
    });
    return true;
  } catch (error) {
    log(
      `qwen serve: restore prompt admission failed for ${session.sessionId}: ${error instanceof Error ? error.message : String(error)}`,
    );
    return false;
  }
}
