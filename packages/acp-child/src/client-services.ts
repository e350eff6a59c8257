// What the client said it can do in `initialize` (`clientCapabilities`), reduced to the services this
// agent uses. Absent, null or malformed means "no": without a capability the local path runs as before.
import type { ClientCapabilities } from "@agentclientprotocol/sdk";

export interface ClientServices {
  /** `elicitation.form`: questions are asked as form elicitations instead of permission requests. */
  elicitationForm: boolean;
  /** `fs.readTextFile`: read_file and edit read through the client (its unsaved buffers). */
  readTextFile: boolean;
  /** `fs.writeTextFile`: write_file and edit write through the client. */
  writeTextFile: boolean;
  /** `terminal`: run_shell_command runs in a client terminal. */
  terminal: boolean;
}

export const NO_CLIENT_SERVICES: ClientServices = Object.freeze({
  elicitationForm: false,
  readTextFile: false,
  writeTextFile: false,
  terminal: false,
});

export function clientServicesOf(capabilities: ClientCapabilities | null | undefined): ClientServices {
  const form = capabilities?.elicitation?.form;
  return {
    // ACP: form support exists only when `form` is present and not null (`{}` advertises it).
    elicitationForm: typeof form === "object" && form !== null,
    readTextFile: capabilities?.fs?.readTextFile === true,
    writeTextFile: capabilities?.fs?.writeTextFile === true,
    terminal: capabilities?.terminal === true,
  };
}
