import { describe, expect, it } from "vitest";
import { DEFAULT_QUESTION } from "../testing/index.js";
import { ASK_USER_QUESTION_DESCRIPTION, createAskUserQuestionTool } from "./ask-user-question.js";
import { ASK_USER_QUESTION_PARAMETERS_JSON_SCHEMA } from "./ask-user-question-params.js";

const args = { questions: [DEFAULT_QUESTION] };

describe("createAskUserQuestionTool", () => {
  const tool = createAskUserQuestionTool();

  it("declares itself as the user_question tool", () => {
    expect(tool.name).toBe("ask_user_question");
    expect(tool.confirmation).toBe("user_question");
    expect(tool.parameters).toBe(ASK_USER_QUESTION_PARAMETERS_JSON_SCHEMA);
    expect(tool.description).toBe(ASK_USER_QUESTION_DESCRIPTION);
  });

  it("describes its usage to the model", () => {
    expect(ASK_USER_QUESTION_DESCRIPTION).toContain("ask the user questions");
    expect(ASK_USER_QUESTION_DESCRIPTION).toContain('"Other"');
    expect(ASK_USER_QUESTION_DESCRIPTION).toContain("multiSelect: true");
    expect(ASK_USER_QUESTION_DESCRIPTION).toContain('"(Recommended)"');
  });

  it("validates with the exact reference texts", () => {
    expect(tool.validate(args)).toBeUndefined();
    const oneOption = { questions: [{ ...args.questions[0], options: [{ label: "a", description: "b" }] }] };
    expect(tool.validate(oneOption)).toBe('Question 1: "options" must contain between 2 and 4 options.');
  });

  it("describes a call as a think-kind question title", () => {
    expect(tool.describe(args)).toEqual({ title: "Ask user 1 question", uiKind: "think" });
    expect(tool.describe({ questions: [1, 2, 3] })).toEqual({
      title: "Ask user 3 questions",
      uiKind: "think",
    });
    expect(tool.describe({ questions: "bad" })).toEqual({ title: "Ask user 0 question", uiKind: "think" });
  });

  it("executes only as the no-interactive-channel fallback", async () => {
    const result = await tool.execute(args, { cwd: "/", signal: new AbortController().signal });
    expect(result).toEqual({
      output:
        "Cannot ask user questions in non-interactive mode without ACP support. Please run in interactive mode or enable ACP mode to use this tool.",
    });
  });
});
