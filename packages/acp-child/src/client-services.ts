// What the client said it can do in `initialize` (`clientCapabilities`), reduced to the services this
// agent uses. Absent, null or malformed means "no": without a capability the local path runs as before.
import type { ClientCapabilities } from "@agentclientprotocol/sdk";
import {
  QUESTION_ANSWERS_CAPABILITY_META_KEY,
  RESTORE_PROMPT_CAPABILITY_META_KEY,
} from "@qwen-daemon/core/protocol";

export interface ClientServices {
  /** `elicitation.form`: questions are asked as form elicitations instead of permission requests. */
  elicitationForm: boolean;
  /** `fs.readTextFile`: read_file and edit read through the client (its unsaved buffers). */
  readTextFile: boolean;
  /** `fs.writeTextFile`: write_file and edit write through the client. */
  writeTextFile: boolean;
  /** `terminal`: run_shell_command runs in a client terminal. */
  terminal: boolean;
  /**
   * `_meta["qwen.daemon.questionAnswers"]` (the daemon): it answers a question's Submit/Cancel permission
   * request with `answers`. A client with neither this nor form elicitation gets one choice per request.
   */
  questionAnswers: boolean;
  /**
   * `_meta["qwen.daemon.restorePrompt"]` (the daemon): it sends the restore prompt itself after a hinted
   * load/resume. For any other client the agent asks a restorable question again before its next prompt.
   */
  restorePrompt: boolean;
}

export const NO_CLIENT_SERVICES: ClientServices = Object.freeze({
  elicitationForm: false,
  readTextFile: false,
  writeTextFile: false,
  terminal: false,
  questionAnswers: false,
  restorePrompt: false,
});

/**
 * `trustedParent`: the client presented the private parent token of the daemon that spawned us (the
 * reference daemon does, and predates the `_meta` keys): it is a qwen daemon whatever it advertises.
 */
export function clientServicesOf(
  capabilities: ClientCapabilities | null | undefined,
  trustedParent = false,
): ClientServices {
  const form = capabilities?.elicitation?.form;
  const meta = capabilities?._meta;
  return {
    // ACP: form support exists only when `form` is present and not null (`{}` advertises it).
    elicitationForm: typeof form === "object" && form !== null,
    readTextFile: capabilities?.fs?.readTextFile === true,
    writeTextFile: capabilities?.fs?.writeTextFile === true,
    terminal: capabilities?.terminal === true,
    questionAnswers: trustedParent || meta?.[QUESTION_ANSWERS_CAPABILITY_META_KEY] === true,
    restorePrompt: trustedParent || meta?.[RESTORE_PROMPT_CAPABILITY_META_KEY] === true,
  };
}
