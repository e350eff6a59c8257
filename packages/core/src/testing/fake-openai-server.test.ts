// The fake server over raw fetch: what goes over the wire, independent of our provider.
import { afterEach, describe, expect, it } from "vitest";
import { SseDecoder } from "../model/sse-decoder.js";
import { splitPieces } from "./fake-openai-render.js";
import {
  askUserQuestionCall,
  lastMessage,
  messageText,
  reply,
  toolCallFor,
  trailingToolMessages,
} from "./fake-openai-replies.js";
import { type FakeOpenAIServer, type FakeScript, startFakeOpenAIServer } from "./fake-openai-server.js";

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
async function start(script?: FakeScript) {
  server = await startFakeOpenAIServer(script);
  return server;
}

const hello = { model: "m", messages: [{ role: "user", content: "hello" }] };
const post = (s: FakeOpenAIServer, body: unknown, init: RequestInit = {}) =>
  fetch(`${s.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    ...init,
  });
// Just the fields these tests read.
interface Completion {
  choices: {
    message: {
      content: string | null;
      tool_calls?: { id: string; function: { name: string; arguments: string } }[];
    };
    finish_reason: string;
  }[];
}
interface ErrorBody {
  error: { message: string; type: string };
}
const completion = async (res: Response | Promise<Response>) => (await (await res).json()) as Completion;
const errorBody = async (res: Response) => (await res.json()) as ErrorBody;

async function frames(response: Response): Promise<string[]> {
  const decoder = new SseDecoder();
  return [...decoder.push(await response.text()), ...decoder.end()];
}

describe("fake OpenAI server", () => {
  it("streams a text reply as several deltas, a finish chunk, usage on request, then [DONE]", async () => {
    const s = await start([reply.text("abcdef", { deltas: 3 })]);
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const res = await post(s, { ...hello, stream: true, stream_options: { include_usage: true } });
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const data = await frames(res);
    expect(data.at(-1)).toBe("[DONE]");
    const chunks = data.slice(0, -1).map((d) => JSON.parse(d));
    const content = chunks.flatMap((c) =>
      c.choices[0]?.delta?.content ? [c.choices[0]?.delta.content] : [],
    );
    expect(content).toEqual(["ab", "cd", "ef"]);
    expect(chunks.at(-2).choices[0]?.finish_reason).toBe("stop");
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { total_tokens: 18 } });
    expect(s.requests).toEqual([{ ...hello, stream: true, stream_options: { include_usage: true } }]);
  });

  it("splits tool call arguments over chunks, first fragment carrying id and name", async () => {
    const s = await start([reply.toolCall("write_file", { file_path: "x" }, "id-1")]);
    const chunks = (await frames(await post(s, { ...hello, stream: true })))
      .slice(0, -1)
      .map((d) => JSON.parse(d));
    const fragments = chunks.flatMap((c) => c.choices[0]?.delta?.tool_calls ?? []);
    expect(fragments[0]).toEqual({
      index: 0,
      id: "id-1",
      type: "function",
      function: { name: "write_file", arguments: "" },
    });
    expect(fragments.length).toBeGreaterThan(2);
    expect(fragments.map((f: { function: { arguments: string } }) => f.function.arguments).join("")).toBe(
      '{"file_path":"x"}',
    );
    expect(chunks.some((c) => "usage" in c)).toBe(false);
  });

  it("answers non-streamed requests with one JSON completion and lists models", async () => {
    const s = await start({
      replies: [askUserQuestionCall([{ question: "Q?", header: "H", options: [] }], { id: "q1" })],
      models: ["a", "b"],
    });
    const body = await completion(post(s, hello));
    expect(body.choices[0]?.finish_reason).toBe("tool_calls");
    expect(body.choices[0]?.message.tool_calls?.[0]).toMatchObject({
      id: "q1",
      function: { name: "ask_user_question" },
    });
    expect(
      JSON.parse(String(body.choices[0]?.message.tool_calls?.[0]?.function.arguments)).questions[0]
        .multiSelect,
    ).toBe(false);
    const models = (await (await fetch(`${s.url}/models`)).json()) as { data: { id: string }[] };
    expect(models.data.map((m: { id: string }) => m.id)).toEqual(["a", "b"]);
  });

  it("serves the queue first, then the handler with the request and its index", async () => {
    const seen: number[] = [];
    const s = await start({
      replies: [reply.text("queued")],
      handler: (req, index) => {
        seen.push(index);
        return reply.text(`echo ${messageText(lastMessage(req))}`);
      },
    });
    expect((await completion(post(s, hello))).choices[0]?.message.content).toBe("queued");
    expect((await completion(post(s, hello))).choices[0]?.message.content).toBe("echo hello");
    expect(seen).toEqual([1]);
    expect(await s.waitForRequest(2)).toEqual(hello);
  });

  it("sends HTTP errors with their headers and OpenAI's error envelope", async () => {
    const s = await start([reply.rateLimited(3), reply.error(500, { message: "down" })]);
    const limited = await post(s, hello);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("3");
    expect((await errorBody(limited)).error.type).toBe("rate_limit_exceeded");
    const down = await post(s, hello);
    expect(down.status).toBe(500);
    expect((await errorBody(down)).error.message).toBe("down");
  });

  it("streams a malformed chunk", async () => {
    const s = await start([reply.malformed({ text: "hi", raw: "{broken" })]);
    const data = await frames(await post(s, { ...hello, stream: true }));
    expect(data).toContain("{broken");
    expect(data.at(-1)).toBe("[DONE]");
  });

  it("stalls until the client aborts, and counts the abort", async () => {
    const s = await start([reply.stall({ text: "wait" })]);
    const controller = new AbortController();
    const res = await post(s, { ...hello, stream: true }, { signal: controller.signal });
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('"role":"assistant"');
    controller.abort();
    await s.waitForClientAbort(1);
    expect(s.clientAborts).toBe(1);
  });

  it("cuts the connection mid-stream without counting it as a client abort", async () => {
    const s = await start([reply.disconnect({ text: "partial" })]);
    const res = await post(s, { ...hello, stream: true });
    await expect(res.text()).rejects.toThrowError();
    expect(s.clientAborts).toBe(0);
  });

  it("delays a reply", async () => {
    const s = await start([reply.delay(20, reply.text("late"))]);
    expect((await completion(post(s, hello))).choices[0]?.message.content).toBe("late");
  });

  it("rejects unpaired tool messages like a real server unless strict is off", async () => {
    const bad = {
      model: "m",
      messages: [
        { role: "user", content: "x" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "c", type: "function", function: { name: "t", arguments: "{}" } }],
        },
        { role: "user", content: "y" },
      ],
    };
    const s = await start([reply.text("fine")]);
    const res = await post(s, bad);
    expect(res.status).toBe(400);
    expect(s.rejected).toEqual([{ index: 0, status: 400, reason: expect.stringContaining("tool_call_ids") }]);
    const lax = await startFakeOpenAIServer({ strict: false, replies: [reply.text("fine")] });
    try {
      expect((await post(lax, bad)).status).toBe(200);
    } finally {
      await lax.close();
    }
  });

  it("requires the API key when configured, and rejects bodies that are not chat requests", async () => {
    const s = await start({ apiKey: "k1" });
    expect((await post(s, hello)).status).toBe(401);
    expect(
      (await post(s, hello, { headers: { "content-type": "application/json", authorization: "Bearer k1" } }))
        .status,
    ).toBe(200);
    expect((await post(s, { nope: true })).status).toBe(400);
    expect(s.rejected.map((r) => r.status)).toEqual([401, 400]);
  });

  it("answers 500 when the handler throws, and records the error", async () => {
    const s = await start(() => {
      throw new Error("handler bug");
    });
    const res = await post(s, hello);
    expect(res.status).toBe(500);
    expect(s.errors.map((e) => e.message)).toEqual(["handler bug"]);
  });

  it("times out waitForRequest with a clear message", async () => {
    const s = await start();
    await expect(s.waitForRequest(1, 20)).rejects.toThrowError(/waiting for request #1/);
  });
});

describe("handler helpers", () => {
  it("finds trailing tool results, their calls, and text in array content", () => {
    const req = {
      model: "m",
      messages: [
        {
          role: "user" as const,
          content: [
            { type: "text", text: "a" },
            { type: "text", text: "b" },
          ],
        },
        {
          role: "assistant" as const,
          content: null,
          tool_calls: [
            { id: "q", type: "function" as const, function: { name: "ask_user_question", arguments: "{}" } },
          ],
        },
        {
          role: "tool" as const,
          tool_call_id: "q",
          content: "User has provided the following answers:\n\n**H**: yes",
        },
      ],
    };
    expect(messageText(req.messages[0])).toBe("ab");
    expect(trailingToolMessages(req).map((m) => m.tool_call_id)).toEqual(["q"]);
    expect(toolCallFor(req, "q")?.name).toBe("ask_user_question");
    expect(lastMessage(req)?.role).toBe("tool");
  });

  it("splits by code point into at most n non-empty pieces", () => {
    expect(splitPieces("", 3)).toEqual([]);
    expect(splitPieces("a", 3)).toEqual(["a"]);
    expect(splitPieces("😀😀", 3)).toEqual(["😀", "😀"]);
  });
});
