// Tool-result texts the turn loop writes itself (the model reads them). Where the reference implementation
// has one, the text is the reference's, so a model tuned on it behaves the same here. The texts of
// ask_user_question and of a cancelled prompt live with the tool (tools/ask-user-question-result.ts), the plan
// mode refusal with the approval table (tools/approval.ts).

/** The model named a tool that is not offered. */
export function toolNotFoundText(toolName: string): string {
  return `Tool "${toolName}" not found in registry. Tools must use the exact names that are registered.`;
}

/** The model's arguments were not a JSON object (the provider could not parse them). */
export function invalidToolArgumentsText(toolName: string, raw: string): string {
  return `Tool "${toolName}" was called with arguments that are not a JSON object: ${raw}`;
}

/** The calls of a batch after one whose permission request the user cancelled: the turn stops there. */
export const SKIPPED_AFTER_PERMISSION_CANCEL_TEXT =
  "Skipped because a permission request was cancelled before the user answered; user input is required before continuing.";

/** The host failed to put a permission request in front of anyone (not a user's answer). */
export function permissionRequestFailedText(toolName: string, message: string): string {
  return `Permission request failed for "${toolName}": ${message}`;
}

/** The start record a tool needs before it runs (`--restore-pending-approvals`) could not be written. */
export function toolStartNotRecordedText(toolName: string, message: string): string {
  return `Tool "${toolName}" was not run: its start could not be recorded (${message}).`;
}
