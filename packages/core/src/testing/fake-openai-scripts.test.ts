// The question-flow handler driven by our real provider over HTTP: the e2e conversation in miniature.
import { afterEach, describe, expect, it } from "vitest";
import type { Content } from "../content.js";
import { OpenAICompatibleProvider } from "../model/openai-provider.js";
import type { ModelEvent } from "../model/provider.js";
import { reply } from "./fake-openai-replies.js";
import { questionFlowHandler } from "./fake-openai-scripts.js";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "./fake-openai-server.js";

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
});

async function turn(provider: OpenAICompatibleProvider, contents: Content[]): Promise<ModelEvent[]> {
  const out: ModelEvent[] = [];
  for await (const e of provider.generate({ contents, tools: [] })) out.push(e);
  return out;
}

describe("questionFlowHandler", () => {
  it("asks, then answers with the exact tool result text it received", async () => {
    server = await startFakeOpenAIServer(
      questionFlowHandler({ onAnswer: (text) => reply.text(`You said -> ${text}`) }),
    );
    const provider = new OpenAICompatibleProvider({ baseUrl: server.url, model: "m" });
    const history: Content[] = [{ role: "user", parts: [{ text: "paint it" }] }];

    const first = await turn(provider, history);
    const call = first.flatMap((e) => (e.type === "tool_call" ? [e.call] : []))[0]!;
    expect(call.name).toBe("ask_user_question");
    expect((call.args.questions as { header: string }[])[0]!.header).toBe("Color");

    const answer = "User has provided the following answers:\n\n**Color**: Blue";
    history.push(
      { role: "model", parts: [{ functionCall: call }] },
      {
        role: "user",
        parts: [{ functionResponse: { id: call.id, name: call.name, response: { output: answer } } }],
      },
    );
    const second = await turn(provider, history);
    const text = second.map((e) => (e.type === "text" ? e.text : "")).join("");
    expect(text).toBe(`You said -> ${answer}`);
    expect(server.requests[1]!.messages.at(-1)).toEqual({
      role: "tool",
      tool_call_id: call.id,
      content: answer,
    });
    expect(server.rejected).toEqual([]);
  });
});
