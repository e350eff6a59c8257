// What the fake model says in the browser tests that need more than the demo model shows: a markdown
// answer with code, an edit of an existing file, a shell command in a subfolder, a two-question card.
// Decided by the last message, so one server serves every test of a file.
import type { OpenAIChatRequest } from "@qwen-daemon/core";
import { type FakeHandler, type FakeReply, lastMessage, messageText, reply } from "@qwen-daemon/core/testing";

export const NOTES_BEFORE = "# Notes\n\nbuy milk\ncall Ann\n";
export const NOTES_AFTER = "# Notes\n\nbuy oat milk\ncall Ann\nwater the plants\n";

export const MARKDOWN_ANSWER = [
  "## Plan",
  "",
  "Here is what I will do, **step by step**:",
  "",
  "1. Read `src/app.ts`",
  "2. Add a `greet` function",
  "",
  "```ts",
  "export function greet(name: string): string {",
  '  return "Hello, " + name;',
  "}",
  "```",
  "",
  "| file | change |",
  "|---|---|",
  "| src/app.ts | new function |",
  "",
  'See [the docs](https://example.org/docs). <img src="http://127.0.0.1:9/pixel.png" onerror="window.pwned=1">',
  "<script>window.pwned = 2</script>",
].join("\n");

export const TWO_QUESTIONS = [
  {
    question: "Which parts?",
    header: "Parts",
    multiSelect: true,
    options: ["Intro", "Body", "Outro"].map((label) => ({ label, description: `The ${label}` })),
  },
  {
    question: "Which colour?",
    header: "Colour",
    multiSelect: false,
    options: ["Red", "Blue"].map((label) => ({ label, description: label })),
  },
];

export function webHandler(): FakeHandler {
  return (request: OpenAIChatRequest): FakeReply => {
    const last = lastMessage(request);
    if (last?.role === "tool") return reply.text(`Noted: ${messageText(last).slice(0, 200)}`);
    const text = messageText(last);
    if (text.includes("SHOW_MARKDOWN")) return reply.text(MARKDOWN_ANSWER);
    if (text.includes("EDIT_NOTES")) {
      return reply.toolCalls(
        [{ name: "write_file", args: { file_path: "notes.md", content: NOTES_AFTER } }],
        { text: "I will update your notes." },
      );
    }
    // The notes as EDIT_NOTES leaves them, written again: an edit that changes nothing.
    if (text.includes("SAME_EDIT")) {
      return reply.toolCalls(
        [{ name: "write_file", args: { file_path: "notes.md", content: NOTES_AFTER } }],
        {
          text: "I will save your notes as they are.",
        },
      );
    }
    if (text.includes("RUN_TESTS")) {
      return reply.toolCalls(
        [
          {
            name: "run_shell_command",
            args: { command: "echo tests passed", directory: "pkg", description: "Run the tests" },
          },
        ],
        { text: "Let me run the tests." },
      );
    }
    if (text.includes("ASK_TWO")) {
      return reply.toolCalls([{ name: "ask_user_question", args: { questions: TWO_QUESTIONS } }], {
        text: "Two questions first.",
      });
    }
    if (text.includes("ASK")) {
      return reply.toolCalls([{ name: "ask_user_question", args: { questions: [TWO_QUESTIONS[1]] } }], {
        text: "One question first.",
      });
    }
    return reply.text("Plain answer.");
  };
}

/** The first prompt of the sessions test: long, so the list must summarise it. */
export const LONG_FIRST_PROMPT =
  "Add a section about installing on Linux and macOS to the README, with examples for both, and check the links";
