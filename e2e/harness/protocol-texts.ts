// The exact texts of docs/protocol.md "What the model is told", written out here (not imported from the product)
// so the suite checks the code against the spec rather than against itself.

export const answeredText = (lines: [header: string, answer: string][]): string =>
  `User has provided the following answers:\n\n${lines.map(([h, a]) => `**${h}**: ${a}`).join("\n")}`;

export const CANCELED_BY_USER_TEXT = 'Tool "ask_user_question" was canceled by the user.';

export const ORPHAN_REPAIR_TEXT =
  "Tool execution result was not recorded — likely interrupted by network failure, abort, or process exit. Treat as failure and retry if needed.";

export const REPLAY_MISSING_RESULT_TEXT =
  "Tool result missing from saved history; the previous run likely ended before this tool completed.";

/** The replay update that closes a dangling call as failed (what `/load` shows without a restore). */
export const failedReplayUpdate = (toolCallId: string) => ({
  sessionUpdate: "tool_call_update",
  toolCallId,
  status: "failed",
  content: [{ type: "content", content: { type: "text", text: REPLAY_MISSING_RESULT_TEXT } }],
});
