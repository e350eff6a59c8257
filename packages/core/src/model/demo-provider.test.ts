import { describe, expect, it } from "vitest";
import type { Content } from "../content.js";
import { DemoModelProvider, demoDeltas } from "./demo-provider.js";
import { DEMO_NOTES_FILE, parseAnswers, planDemoReply } from "./demo-script.js";
import { type GenerateRequest, ModelError, type ModelEvent, type ToolDeclaration } from "./provider.js";

const tool = (name: string): ToolDeclaration => ({ name, description: name, parameters: { type: "object" } });
const tools = [tool("ask_user_question"), tool("write_file"), tool("list_directory"), tool("read_file")];

async function run(contents: Content[], offered = tools, signal?: AbortSignal) {
  const events: ModelEvent[] = [];
  for await (const e of new DemoModelProvider().generate({ contents, tools: offered, signal }))
    events.push(e);
  const text = events.map((e) => (e.type === "text" ? e.text : "")).join("");
  const calls = events.flatMap((e) => (e.type === "tool_call" ? [e.call] : []));
  return { events, text, calls };
}

const userSays: Content = { role: "user", parts: [{ text: "Add a README section about setup" }] };

async function answered(output: string) {
  const a = await run([userSays]);
  const call = a.calls[0]!;
  const history: Content[] = [
    userSays,
    { role: "model", parts: [{ text: a.text }, { functionCall: call }] },
    { role: "user", parts: [{ functionResponse: { id: call.id, name: call.name, response: { output } } }] },
  ];
  return { history, b: await run(history) };
}

describe("DemoModelProvider", () => {
  it("(a) answers a user message with labelled streamed text and one ask_user_question call", async () => {
    const { events, text, calls } = await run([userSays]);
    expect(events.filter((e) => e.type === "text").length).toBeGreaterThan(2);
    expect(text.startsWith("[demo model]")).toBe(true);
    expect(text).toContain("Add a README section about setup");
    expect(calls).toHaveLength(1);
    const call = calls[0]!;
    expect(call.name).toBe("ask_user_question");
    const questions = call.args.questions as { header: string; question: string; options: unknown[] }[];
    expect(questions).toHaveLength(1);
    expect(questions[0]!.header).toBe("Format");
    expect(questions[0]!.options.length).toBeGreaterThanOrEqual(2);
    expect(questions[0]!.options.length).toBeLessThanOrEqual(4);
    expect(events.at(-1)).toEqual({ type: "finish", reason: "tool_calls" });
    // Deterministic: the same request gives the same call id.
    expect((await run([userSays])).calls[0]!.id).toBe(call.id);
  });

  it("(b) writes demo-notes.md quoting the request and the answer", async () => {
    const { b } = await answered("User has provided the following answers:\n\n**Format**: Checklist");
    expect(b.text).toContain('You chose "Checklist"');
    expect(b.calls).toHaveLength(1);
    const write = b.calls[0]!;
    expect(write.name).toBe("write_file");
    expect(write.args.file_path).toBe(DEMO_NOTES_FILE);
    expect(write.args.content).toContain("Add a README section about setup");
    expect(write.args.content).toContain("Format: Checklist");
  });

  it("(b) stops when the question was cancelled", async () => {
    const { b } = await answered('Tool "ask_user_question" was canceled by the user.');
    expect(b.calls).toEqual([]);
    expect(b.text).toContain("[demo model]");
    expect(b.text).toContain("stopped");
    expect(b.text).toContain("canceled by the user");
    expect(b.events.at(-1)).toEqual({ type: "finish", reason: "stop" });
  });

  it("(c) summarises the write, quoting the answer and the tool result; or the rejection", async () => {
    const { history, b } = await answered(
      "User has provided the following answers:\n\n**Format**: Short note",
    );
    const write = b.calls[0]!;
    const after = (response: Record<string, unknown>): Content[] => [
      ...history,
      { role: "model", parts: [{ text: b.text }, { functionCall: write }] },
      { role: "user", parts: [{ functionResponse: { id: write.id, name: "write_file", response } }] },
    ];
    const ok = await run(after({ output: "Successfully created demo-notes.md" }));
    expect(ok.calls).toEqual([]);
    expect(ok.text).toContain("[demo model]");
    expect(ok.text).toContain('"Short note"');
    expect(ok.text).toContain("Successfully created demo-notes.md");
    const rejected = await run(after({ error: "The user rejected this operation." }));
    expect(rejected.text).toContain('"Short note"');
    expect(rejected.text).toContain("The user rejected this operation.");
    // Ids differ from step to step because the history grew.
    expect(new Set([history[1]!.parts[1]!.functionCall!.id, write.id]).size).toBe(2);
  });

  it("treats a new message after a repaired, dangling question as a new request", () => {
    const reply = planDemoReply({
      contents: [
        { role: "model", parts: [{ functionCall: { id: "old", name: "ask_user_question", args: {} } }] },
        {
          role: "user",
          parts: [
            {
              functionResponse: { id: "old", name: "ask_user_question", response: { error: "interrupted" } },
            },
            { text: "something else" },
          ],
        },
      ],
      tools,
    });
    expect(reply.toolCall?.name).toBe("ask_user_question");
    expect(reply.text).toContain("something else");
  });

  it("lists the directory when it cannot ask, and summarises the listing", async () => {
    const offered = [tool("list_directory")];
    const a = await run([userSays], offered);
    expect(a.calls[0]).toMatchObject({ name: "list_directory", args: { path: "." } });
    const c = await run(
      [
        userSays,
        { role: "model", parts: [{ functionCall: a.calls[0]! }] },
        {
          role: "user",
          parts: [
            {
              functionResponse: {
                id: a.calls[0]!.id,
                name: "list_directory",
                response: { output: "README.md" },
              },
            },
          ],
        },
      ],
      offered,
    );
    expect(c.text).toContain("README.md");
  });

  it("stops with an aborted ModelError when the signal fires", async () => {
    const controller = new AbortController();
    controller.abort();
    const request: GenerateRequest = { contents: [userSays], tools, signal: controller.signal };
    const iterator = new DemoModelProvider().generate(request)[Symbol.asyncIterator]();
    await expect(iterator.next()).rejects.toSatisfy((e) => e instanceof ModelError && e.kind === "aborted");
  });
});

describe("demo helpers", () => {
  it("parses **Header**: answer lines", () => {
    expect(
      parseAnswers("User has provided the following answers:\n\n**Format**: Short note\n**Q2**: a, b"),
    ).toEqual([
      { header: "Format", answer: "Short note" },
      { header: "Q2", answer: "a, b" },
    ]);
    expect(
      parseAnswers("User has provided the following answers:\n\nNo valid answers were provided."),
    ).toEqual([]);
  });

  it("splits text into word deltas without losing characters", () => {
    const text = "one two  three four five six seven";
    expect(demoDeltas(text).join("")).toBe(text);
    expect(demoDeltas(text).length).toBe(2);
  });
});
