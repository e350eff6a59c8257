import { describe, expect, it } from "vitest";
import type { ToolItem } from "./timeline.js";
import { toolShown } from "./tool-outcome.js";

const tool = (fields: Partial<ToolItem>): ToolItem => ({
  key: "tool:1",
  kind: "tool",
  toolCallId: "1",
  title: "Ask user 1 question",
  status: "completed",
  output: "",
  diffs: [],
  ...fields,
});

describe("toolShown", () => {
  const asked = { toolName: "ask_user_question", rawInput: { questions: [{ question: "Which colour?" }] } };

  it("reads a declined question and a rejected edit as the person's choice, without the model's sentence", () => {
    const declined = toolShown(
      tool({ ...asked, status: "failed", output: 'Tool "ask_user_question" was canceled by the user.' }),
    );
    expect(declined).toMatchObject({ status: "declined", words: "you declined", body: "" });
    expect(declined.title).toBe("Which colour?");
    const rejected = toolShown(
      tool({
        title: "Write notes.md",
        toolName: "write_file",
        status: "failed",
        output: 'Tool "write_file" was canceled by the user.',
      }),
    );
    expect(rejected).toMatchObject({ status: "declined", words: "you said no", title: "Write notes.md" });
    expect(
      toolShown(tool({ status: "failed", output: "Tool call was cancelled before execution." })).status,
    ).toBe("stopped");
  });

  it("shows an answered question as its answers, in markdown, without the preamble", () => {
    const shown = toolShown(
      tool({ ...asked, output: "User has provided the following answers:\n\n**Colour**: Red" }),
    );
    expect(shown).toMatchObject({
      status: "completed",
      words: "done",
      body: "**Colour**: Red",
      markdown: true,
    });
  });

  it("leaves a real failure a failure, with its output", () => {
    expect(toolShown(tool({ title: "Run", status: "failed", output: "exit 1" }))).toMatchObject({
      status: "failed",
      body: "exit 1",
      markdown: false,
    });
  });
});
