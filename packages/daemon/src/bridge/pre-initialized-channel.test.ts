import * as acp from "@agentclientprotocol/sdk";
import {
  QUESTION_ANSWERS_CAPABILITY_META_KEY,
  RESTORE_PROMPT_CAPABILITY_META_KEY,
} from "@qwen-daemon/core/protocol";
import { describe, expect, it } from "vitest";
import type { ChildChannel, ChildExit } from "./channel.js";
import { ChildConnection } from "./child-connection.js";
import {
  ACP_PROTOCOL_VERSION,
  INITIALIZE_PARAMS,
  QWEN_CLIENT_CAPABILITIES_META,
} from "./initialize-request.js";
import { PRE_INITIALIZE_ID, preInitialize } from "./pre-initialized-channel.js";

type Message = Record<string, unknown> & { id?: unknown; method?: string };
/** How the fake child answers an `initialize` (given its id): the lines it writes. */
type InitializeScript = (id: unknown) => string[];

const encoder = new TextEncoder();
const OK_RESULT = { protocolVersion: 1, agentCapabilities: { loadSession: true } };
const answerOk: InitializeScript = (id) => [JSON.stringify({ jsonrpc: "2.0", id, result: OK_RESULT })];

/** A child process played by the test: raw NDJSON in both directions, every message it reads recorded. */
function fakeChild(onInitialize: InitializeScript, { brokenStdin = false } = {}) {
  const toChild = new TransformStream<Uint8Array, Uint8Array>();
  const toDaemon = new TransformStream<Uint8Array, Uint8Array>();
  const out = toDaemon.writable.getWriter();
  const received: Message[] = [];
  let exit!: (exit: ChildExit) => void;
  const exited = new Promise<ChildExit>((resolve) => {
    exit = resolve;
  });
  const write = (lines: string[]) => out.write(encoder.encode(lines.map((l) => `${l}\n`).join("")));
  let dead = false;
  const die = async () => {
    if (dead) return;
    dead = true;
    await out.close();
    // A process's pipe end and its exit are separate events (macrotasks), never one microtask apart.
    await new Promise((resolve) => setImmediate(resolve));
    exit({ code: 1, signal: null });
  };
  void (async () => {
    const decoder = new TextDecoder();
    let text = "";
    for await (const chunk of toChild.readable) {
      text += decoder.decode(chunk);
      for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n")) {
        const message = JSON.parse(text.slice(0, nl)) as Message;
        text = text.slice(nl + 1);
        received.push(message);
        if (message.method === "initialize") {
          const lines = onInitialize(message.id);
          if (lines.length > 0) await write(lines);
        } else if (message.method === "session/new") {
          await write([JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { sessionId: "s1" } })]);
        }
      }
    }
  })();
  const input = brokenStdin
    ? new WritableStream<Uint8Array>({
        write: () => Promise.reject(new Error("EPIPE")),
      })
    : toChild.writable;
  const channel: ChildChannel = {
    pid: undefined,
    input,
    output: toDaemon.readable,
    stderr: undefined,
    exited,
    kill: () => void die(),
  };
  return { channel, received, write, die };
}

const handlers = {
  sessionUpdate: () => undefined,
  requestPermission: () => Promise.reject(new Error("not in this test")),
};

/**
 * What the connection's `initialize` gives, over a plain or a pre-initialized channel. The connection is
 * made once the child has had time to answer an early initialize (the daemon loads slower than the child
 * starts); `death` kills the child at a moment independent of what it was sent.
 */
async function initializeOutcome(
  script: InitializeScript,
  preInitialized: boolean,
  death?: "before the connection" | "after the connection",
) {
  const child = fakeChild(script);
  const channel = preInitialized ? preInitialize(child.channel) : child.channel;
  if (death === "before the connection") await child.die();
  await new Promise((resolve) => setTimeout(resolve, 10));
  const connection = new ChildConnection(channel, handlers);
  const outcome = connection.initialize().then(
    (response) => ({ response }),
    (error: Error & { code?: number; data?: unknown }) => ({
      error: { name: error.name, message: error.message, code: error.code, data: error.data },
    }),
  );
  if (death === "after the connection") {
    await new Promise((resolve) => setTimeout(resolve, 10));
    await child.die();
  }
  return outcome;
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 1));
  expect(check()).toBe(true);
};

describe("preInitialize", () => {
  it("sends the child one initialize at once; the connection's own is answered from it; ids never repeat", async () => {
    const child = fakeChild(answerOk);
    const channel = preInitialize(child.channel);
    await until(() => child.received.length === 1); // before any connection exists
    expect(child.received[0]).toEqual({
      jsonrpc: "2.0",
      id: PRE_INITIALIZE_ID,
      method: "initialize",
      params: INITIALIZE_PARAMS,
    });
    const connection = new ChildConnection(channel, handlers);
    expect(await connection.initialize()).toEqual(OK_RESULT);
    expect(connection.agentCapabilities).toEqual({ loadSession: true });
    expect(await connection.newSession("/ws")).toEqual({ sessionId: "s1" });
    expect(child.received.map((m) => m.method)).toEqual(["initialize", "session/new"]);
    const ids = child.received.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("passes what the child wrote before and after its answer on, in order", async () => {
    const updates: unknown[] = [];
    const update = (text: string) =>
      JSON.stringify({
        jsonrpc: "2.0",
        method: "session/update",
        params: {
          sessionId: "s1",
          update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } },
        },
      });
    const child = fakeChild((id) => [update("before"), ...answerOk(id), update("after")]);
    const channel = preInitialize(child.channel);
    await new Promise((resolve) => setTimeout(resolve, 20)); // the answer is held, unread by anyone
    const connection = new ChildConnection(channel, {
      ...handlers,
      sessionUpdate: (params) =>
        updates.push((params.update as unknown as { content: { text: string } }).content.text),
    });
    expect(await connection.initialize()).toEqual(OK_RESULT);
    await until(() => updates.length === 2);
    expect(updates).toEqual(["before", "after"]);
  });

  it("the connection reports the child's answers exactly as without it: an error, a malformed answer, none", async () => {
    const silent: InitializeScript = () => [];
    const cases: Array<[string, InitializeScript, Parameters<typeof initializeOutcome>[2]?]> = [
      ["ok", answerOk],
      [
        "error",
        (id) => [
          JSON.stringify({
            jsonrpc: "2.0",
            id,
            error: { code: -32603, message: "no model", data: { x: 1 } },
          }),
        ],
      ],
      ["malformed", (id) => [JSON.stringify({ jsonrpc: "2.0", id })]],
      ["malformed error", (id) => [JSON.stringify({ jsonrpc: "2.0", id, error: { code: "x" } })]],
      ["died before the daemon was ready", silent, "before the connection"],
      ["died while the daemon waited", silent, "after the connection"],
      ["answered, then died", answerOk, "after the connection"],
    ];
    const outcomes: Record<string, unknown> = {};
    for (const [name, script, death] of cases) {
      const plain = await initializeOutcome(script, false, death);
      const early = await initializeOutcome(script, true, death);
      expect({ name, early }).toEqual({ name, early: plain });
      outcomes[name] = early;
    }
    // The cases are not all alike (the comparison alone would pass for a channel that always failed).
    expect(outcomes).toMatchObject({
      ok: { response: OK_RESULT },
      error: { error: { message: "no model", code: -32603, data: { x: 1 } } },
      malformed: { error: { code: -32600 } },
    });
    for (const name of ["died before the daemon was ready", "died while the daemon waited"]) {
      expect(outcomes[name]).toHaveProperty("error.message");
    }
  });

  it("forwards an initialize with other params, and drops the early answer", async () => {
    const child = fakeChild(answerOk);
    const channel = preInitialize(child.channel, { ...INITIALIZE_PARAMS, clientInfo: { name: "other" } });
    const connection = new ChildConnection(channel, handlers);
    expect(await connection.initialize()).toEqual(OK_RESULT);
    expect(await connection.newSession("/ws")).toEqual({ sessionId: "s1" });
    expect(child.received.map((m) => [m.method, m.id])).toEqual([
      ["initialize", PRE_INITIALIZE_ID],
      ["initialize", 0],
      ["session/new", 1],
    ]);
  });

  it("leaves the connection's initialize to a child whose stdin is already broken", async () => {
    const outcome = async (preInitialized: boolean) => {
      const child = fakeChild(answerOk, { brokenStdin: true });
      const channel = preInitialized ? preInitialize(child.channel) : child.channel;
      await new Promise((resolve) => setTimeout(resolve, 10));
      const pending = new ChildConnection(channel, handlers)
        .initialize()
        .catch((error: Error) => error.message);
      await child.die();
      return pending;
    };
    const plain = await outcome(false);
    expect(plain).toEqual(expect.any(String));
    expect(await outcome(true)).toBe(plain);
  });
});

describe("INITIALIZE_PARAMS", () => {
  it("names the ACP SDK's protocol version and the contract's capability keys", () => {
    expect(ACP_PROTOCOL_VERSION).toBe(acp.PROTOCOL_VERSION);
    expect(QWEN_CLIENT_CAPABILITIES_META).toEqual({
      [QUESTION_ANSWERS_CAPABILITY_META_KEY]: true,
      [RESTORE_PROMPT_CAPABILITY_META_KEY]: true,
    });
  });
});
