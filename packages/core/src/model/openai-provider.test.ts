// The OpenAI provider against a real HTTP server (the fake one from ../testing), never a mocked fetch.
import { afterEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, type FakeScript, reply, startFakeOpenAIServer } from "../testing/index.js";
import { OpenAICompatibleProvider, type OpenAIProviderOptions } from "./openai-provider.js";
import { type GenerateRequest, ModelError, type ModelEvent } from "./provider.js";

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const request: GenerateRequest = {
  systemInstruction: "be brief",
  contents: [{ role: "user", parts: [{ text: "hi" }] }],
  tools: [{ name: "list_directory", description: "List", parameters: { type: "object" } }],
};

async function setup(script: FakeScript, options: Partial<OpenAIProviderOptions> = {}) {
  server = await startFakeOpenAIServer(script);
  const sleeps: number[] = [];
  const provider = new OpenAICompatibleProvider({
    baseUrl: server.url,
    apiKey: "sk-test",
    model: "m1",
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    ...options,
  });
  return { server, provider, sleeps };
}

async function collect(events: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> {
  const out: ModelEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

async function failure(
  events: AsyncIterable<ModelEvent>,
): Promise<{ error: ModelError; seen: ModelEvent[] }> {
  const seen: ModelEvent[] = [];
  try {
    for await (const event of events) seen.push(event);
  } catch (caught) {
    if (caught instanceof ModelError) return { error: caught, seen };
    throw caught;
  }
  throw new Error(`expected a ModelError, got ${seen.length} events and no error`);
}

describe("OpenAICompatibleProvider over HTTP", () => {
  it("streams text deltas from SSE chunks and sends the mapped request", async () => {
    const { provider, server } = await setup([reply.text("Hello there, world", { deltas: 3 })]);
    const events = await collect(provider.generate(request));
    expect(events.filter((e) => e.type === "text").map((e) => e.type === "text" && e.text)).toEqual([
      "Hello ",
      "there,",
      " world",
    ]);
    expect(events.at(-1)).toMatchObject({ type: "finish", reason: "stop" });
    const sent = server.requests[0]!;
    expect(sent.model).toBe("m1");
    expect(sent.stream).toBe(true);
    expect(sent.stream_options).toEqual({ include_usage: true });
    expect(sent.messages).toEqual([
      { role: "system", content: "be brief" },
      { role: "user", content: "hi" },
    ]);
    expect(sent.tools?.[0]?.function.name).toBe("list_directory");
    expect(server.requestHeaders[0]?.authorization).toBe("Bearer sk-test");
  });

  it("assembles two tool calls whose arguments are split across chunks", async () => {
    const { provider } = await setup([
      reply.toolCalls(
        [
          { name: "write_file", args: { file_path: "a.md", content: "hello world" }, id: "c1" },
          { name: "list_directory", args: { path: "." }, id: "c2" },
        ],
        { text: "Working on it", deltas: 4 },
      ),
    ]);
    const events = await collect(provider.generate(request));
    expect(events.filter((e) => e.type === "tool_call")).toEqual([
      {
        type: "tool_call",
        call: { id: "c1", name: "write_file", args: { file_path: "a.md", content: "hello world" } },
      },
      { type: "tool_call", call: { id: "c2", name: "list_directory", args: { path: "." } } },
    ]);
    expect(events.at(-1)).toMatchObject({ type: "finish", reason: "tool_calls" });
  });

  it("reports reasoning deltas as thoughts and the final usage", async () => {
    const usage = { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 };
    const { provider } = await setup([reply.text("ok", { reasoning: "let me think", usage })]);
    const events = await collect(provider.generate(request));
    expect(
      events
        .filter((e) => e.type === "thought")
        .map((e) => (e.type === "thought" ? e.text : ""))
        .join(""),
    ).toBe("let me think");
    expect(events.at(-1)).toEqual({
      type: "finish",
      reason: "stop",
      usage: { promptTokens: 3, completionTokens: 4, totalTokens: 7 },
    });
  });

  it("retries a 429 after the server's Retry-After, then succeeds", async () => {
    const { provider, sleeps, server } = await setup([reply.rateLimited(7), reply.text("after wait")]);
    const events = await collect(provider.generate(request));
    expect(events.some((e) => e.type === "text")).toBe(true);
    expect(sleeps).toEqual([7000]);
    expect(server.requests).toHaveLength(2);
  });

  it("retries 500s with exponential backoff and reports the last one as a server error", async () => {
    const notices: number[] = [];
    const { provider, sleeps, server } = await setup(
      [reply.error(500, { message: "boom" }), reply.error(502), reply.error(500, { message: "still down" })],
      { retry: { maxAttempts: 3, baseDelayMs: 100 }, onRetry: (n) => notices.push(n.attempt) },
    );
    const { error } = await failure(provider.generate(request));
    expect(error.kind).toBe("server");
    expect(error.status).toBe(500);
    expect(error.message).toContain("still down");
    // random() = 0.5 → equal jitter gives 3/4 of each step: 100 → 75, 200 → 150.
    expect(sleeps).toEqual([75, 150]);
    expect(notices).toEqual([1, 2]);
    expect(server.requests).toHaveLength(3);
  });

  it("does not retry a 401 and types it as auth", async () => {
    const { provider, sleeps, server } = await setup([
      reply.error(401, { message: "bad key" }),
      reply.text("never"),
    ]);
    const { error } = await failure(provider.generate(request));
    expect(error.kind).toBe("auth");
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("bad key");
    expect(sleeps).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it("types a 400 as bad_request without retrying", async () => {
    const { provider, server } = await setup([reply.error(400, { message: "model not found" })]);
    const { error } = await failure(provider.generate(request));
    expect(error.kind).toBe("bad_request");
    expect(server.requests).toHaveLength(1);
  });

  it("turns a malformed chunk into a protocol error, and does not retry once text was streamed", async () => {
    const { provider, server } = await setup([reply.malformed({ text: "partial" }), reply.text("never")]);
    const { error, seen } = await failure(provider.generate(request));
    expect(error.kind).toBe("protocol");
    expect(seen.map((e) => e.type)).toContain("text");
    expect(server.requests).toHaveLength(1);
  });

  it("retries a server failure that arrives mid-stream before any output", async () => {
    const { provider, server } = await setup([
      reply.error(200, {
        body: 'data: {"error":{"message":"overloaded"}}\n\n',
        headers: { "content-type": "text/event-stream" },
      }),
      reply.text("second time lucky"),
    ]);
    const events = await collect(provider.generate(request));
    expect(events.some((e) => e.type === "text")).toBe(true);
    expect(server.requests).toHaveLength(2);
  });

  it("never retries after output began, even for a retryable failure", async () => {
    const { provider, server, sleeps } = await setup([
      reply.disconnect({ text: "half an answ" }),
      reply.text("never"),
    ]);
    const { error, seen } = await failure(provider.generate(request));
    expect(error.kind).toBe("network");
    expect(error.retryable).toBe(true);
    expect(seen.map((e) => e.type)).toContain("text");
    expect(sleeps).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it("retries a connection dropped before any output", async () => {
    const { provider, server } = await setup([reply.disconnect(), reply.text("second try")]);
    const events = await collect(provider.generate(request));
    expect(events.some((e) => e.type === "text")).toBe(true);
    expect(server.requests).toHaveLength(2);
  });

  it("reports a stream cut by the server going away as a network error", async () => {
    const { provider, server } = await setup([reply.stall({ text: "half an answ" }), reply.text("never")]);
    const events = provider.generate(request)[Symbol.asyncIterator]();
    const first = await events.next();
    expect(first.value).toMatchObject({ type: "text" });
    await server.close(); // drops the connection mid-stream
    let caught: unknown;
    try {
      for (;;) if ((await events.next()).done) break;
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ModelError);
    expect((caught as ModelError).kind).toBe("network");
    expect(server.requests).toHaveLength(1);
  });

  it("aborts mid-stream when the caller's signal fires", async () => {
    const { provider, server } = await setup([reply.stall({ text: "thinking about it" })]);
    const controller = new AbortController();
    const seen: ModelEvent[] = [];
    let caught: unknown;
    try {
      for await (const event of provider.generate({ ...request, signal: controller.signal })) {
        seen.push(event);
        controller.abort();
      }
    } catch (error) {
      caught = error;
    }
    expect(seen).toHaveLength(1);
    expect(caught).toBeInstanceOf(ModelError);
    expect((caught as ModelError).kind).toBe("aborted");
    await server.waitForClientAbort(1);
  });

  it("drops the connection when the caller stops iterating early", async () => {
    const { provider, server } = await setup([reply.stall({ text: "a long story" })]);
    for await (const event of provider.generate(request)) {
      expect(event.type).toBe("text");
      break;
    }
    await server.waitForClientAbort(1);
  });

  it("stops waiting for a retry when aborted during the backoff", async () => {
    const controller = new AbortController();
    const { provider, server } = await setup([reply.error(503), reply.text("never")], {
      sleep: async () => {
        controller.abort();
        throw new ModelError("aborted", "aborted in sleep");
      },
    });
    const { error } = await failure(provider.generate({ ...request, signal: controller.signal }));
    expect(error.kind).toBe("aborted");
    expect(server.requests).toHaveLength(1);
  });

  it("reports a connection refused as a retryable network error", async () => {
    const { provider, sleeps, server } = await setup([], { retry: { maxAttempts: 2 } });
    await server.close();
    const { error } = await failure(provider.generate(request));
    expect(error.kind).toBe("network");
    expect(error.message).toContain(server.url);
    expect(sleeps).toHaveLength(1);
  });

  it("warms up without sending a request, and answers normally afterwards", async () => {
    const { provider, server } = await setup([reply.text("after the warm-up")]);
    // Its sample stream goes through the real chunk schema: a schema it no longer matches rejects here.
    await provider.warmUp(request.tools);
    expect(server.requests).toHaveLength(0);
    const events = await collect(provider.generate(request));
    expect(events.filter((e) => e.type === "text").length).toBeGreaterThan(0);
    expect(server.requests).toHaveLength(1);
  });

  it("accepts a server that ignores stream:true and answers one JSON body", async () => {
    const { provider } = await setup((body) =>
      body.stream ? reply.text("unused") : reply.toolCall("list_directory", { path: "src" }, "j1"),
    );
    // Force the JSON path: the fake server answers JSON when asked not to stream.
    const nonStreaming = new OpenAICompatibleProvider({
      baseUrl: server!.url,
      model: "m1",
      extraBody: {},
      fetch: (input, init) =>
        fetch(input, { ...init, body: String(init?.body).replace('"stream":true', '"stream":false') }),
    });
    const events = await collect(nonStreaming.generate(request));
    expect(events).toEqual([
      { type: "tool_call", call: { id: "j1", name: "list_directory", args: { path: "src" } } },
      {
        type: "finish",
        reason: "tool_calls",
        usage: { promptTokens: 11, completionTokens: 7, totalTokens: 18 },
      },
    ]);
    expect(provider.describe()).toContain("m1");
  });
});
