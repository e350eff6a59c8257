// docs/restore.md "How a restore runs", step 4 applied to a freshly restored session: admit the tracked restore prompt, or log why
// not. Never throws: restore is a best-effort side effect of a load that has already succeeded.
import {
  type Meta,
  PROMPT_ID_META_KEY,
  RESTORE_ASK_USER_QUESTION_META_KEY,
  RESTORE_PENDING_APPROVALS_META_KEY,
} from "@qwen-daemon/core/protocol";
import type { LiveSession } from "./live-session.js";
import { decideRestoreAdmission } from "./restore-admission.js";

export type RestorePromptInput = {
  session: LiveSession;
  /** `_meta` of the child's load/resume response (carries the hint). */
  responseMeta: Meta | null | undefined;
  switchOn: boolean;
  /** `--restore-pending-approvals`: the child's approvals hint is admitted the same way, under this switch. */
  approvalsSwitchOn?: boolean;
  /** The X-Qwen-Client-Id the load came with (the "attached client" of the spec). */
  requestedClientId: string | undefined;
  /** The id the daemon minted for that client: the restore prompt's originator. */
  clientId: string;
  newId: () => string;
  log: (line: string) => void;
};

/** The id of the restore prompt admitted, or undefined when none was. */
export function admitRestorePrompt(input: RestorePromptInput): string | undefined {
  const { session, log } = input;
  // A batch holds questions only (the question hint) or an approval (the approvals hint), never both.
  const approvals = input.responseMeta?.[RESTORE_PENDING_APPROVALS_META_KEY] === true;
  const key = approvals ? RESTORE_PENDING_APPROVALS_META_KEY : RESTORE_ASK_USER_QUESTION_META_KEY;
  const hint = approvals || input.responseMeta?.[RESTORE_ASK_USER_QUESTION_META_KEY] === true;
  const decision = decideRestoreAdmission({
    hint,
    switchOn: approvals ? input.approvalsSwitchOn === true : input.switchOn,
    requestedClientId: input.requestedClientId,
    activity: session.activity,
  });
  if (!decision.admit) {
    const what = approvals ? "pending approvals" : "ask_user_question";
    if (hint) log(`qwen serve: restore of ${what} refused for ${session.sessionId} (${decision.reason})`);
    return undefined;
  }
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
