// The message box: sending a prompt to the open session and stopping the running one.
import { ApiError, sessionPath } from "./api.js";
import { describe, isSessionLost } from "./api-errors.js";
import { api } from "./daemon-connection.js";
import { ui } from "./page-elements.js";
import { note, prompts, state, updateBusy } from "./page-state.js";
import { recover } from "./session-recovery.js";

export async function sendPrompt() {
  const text = ui.prompt.value.trim();
  const sessionId = state.sessionId;
  if (!text || !sessionId) return;
  ui.prompt.value = "";
  ui.send.disabled = true;
  try {
    const res = await api.request(
      "POST",
      sessionPath(sessionId, "prompt"),
      { prompt: [{ type: "text", text }] },
      state.clientId,
    );
    if (typeof res.promptId === "string") prompts.started(res.promptId);
  } catch (error) {
    ui.prompt.value = text;
    if (error instanceof ApiError && error.code === "prompt_queue_full") {
      note("error", "The agent already has a full queue of messages; try again in a moment.");
    } else if (isSessionLost(error)) {
      note(
        "error",
        "The daemon no longer has this session live; reloading it. Send your message again then.",
      );
      void recover("the daemon no longer has this session live");
    } else if (error instanceof ApiError && error.code === "invalid_client_id") {
      note(
        "error",
        "This tab's connection to the session was lost; reloading it. Send your message again then.",
      );
      void recover("our client registration was lost");
    } else {
      note("error", `Could not send: ${describe(error)}`);
    }
  } finally {
    updateBusy();
  }
}

export async function cancelPrompt() {
  if (!state.sessionId) return;
  ui.cancel.disabled = true;
  try {
    await api.request("POST", sessionPath(state.sessionId, "cancel"), {}, state.clientId);
  } catch (error) {
    note("error", `Could not stop the turn: ${describe(error)}`);
    updateBusy();
  }
}
