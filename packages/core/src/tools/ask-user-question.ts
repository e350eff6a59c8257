// The ask_user_question tool. Its confirmation *is* the tool: the turn loop shows the questions through
// the host's confirmation handler ("user_question") and writes the formatted answers as the result
// (formatAskUserQuestionAnswers). `execute` only runs when a host has no way to collect answers.
import {
  ASK_USER_QUESTION_PARAMETERS_JSON_SCHEMA,
  validateAskUserQuestionParams,
} from "./ask-user-question-params.js";
import {
  ASK_USER_QUESTION_NON_INTERACTIVE_TEXT,
  ASK_USER_QUESTION_TOOL_NAME,
  askUserQuestionTitle,
} from "./ask-user-question-result.js";
import type { Tool, ToolCallDescription, ToolResult } from "./tool.js";
import { BUILTIN_RESTORE_CLASS, BuiltinToolName } from "./tool-names.js";

export const ASK_USER_QUESTION_DESCRIPTION = `Use this tool to ask the user questions while you work. It lets you:
1. Gather the user's preferences or requirements
2. Clarify ambiguous instructions
3. Get decisions on implementation choices as they come up
4. Offer the user choices about which direction to take

Usage notes:
- The user can always pick "Other" and type a custom answer
- Set multiSelect: true when several answers may be selected for a question
- If you recommend an option, put it first and add "(Recommended)" at the end of its label

Plan mode note: in plan mode, use this tool to clarify requirements or choose between approaches before you finalize the plan, not to ask whether the plan is ready or whether to proceed.
`;

export function createAskUserQuestionTool(): Tool {
  return {
    name: ASK_USER_QUESTION_TOOL_NAME,
    description: ASK_USER_QUESTION_DESCRIPTION,
    parameters: ASK_USER_QUESTION_PARAMETERS_JSON_SCHEMA,
    confirmation: "user_question",
    restoreClass: BUILTIN_RESTORE_CLASS[BuiltinToolName.askUserQuestion],
    validate: validateAskUserQuestionParams,
    describe(args: Record<string, unknown>): ToolCallDescription {
      // describe may see unvalidated args (e.g. a replayed call); count what is there rather than throw.
      const questions = Array.isArray(args.questions) ? args.questions : [];
      return { title: askUserQuestionTitle({ questions }), uiKind: "think" };
    },
    async execute(): Promise<ToolResult> {
      return { output: ASK_USER_QUESTION_NON_INTERACTIVE_TEXT };
    },
  };
}
