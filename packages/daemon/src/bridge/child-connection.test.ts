import { describe, expect, it } from "vitest";
import { createTestDaemon, waitFor } from "../testing/test-daemon.js";
import { childEnvironment } from "./spawn-channel.js";

describe("the daemon as ACP client", () => {
  it("answers the reference child's craft/drainMidTurnQueue with an empty queue; other methods -32601", async () => {
    const results: unknown[] = [];
    const d = createTestDaemon({
      agent: {
        prompt: async (params, peer) => {
          results.push(
            await peer.request("craft/drainMidTurnQueue", { sessionId: params.sessionId, promptId: "p" }),
          );
          results.push(
            await peer.request("qwen/unknown/method", {}).catch((error: { code: number }) => error.code),
          );
          return { stopReason: "end_turn" };
        },
      },
    });
    const { sessionId } = await d.createSession();
    await d.request("POST", `/session/${sessionId}/prompt`, {
      body: { prompt: [{ type: "text", text: "x" }] },
    });
    await waitFor(() => results.length === 2, "both answers");
    expect(results).toEqual([{ messages: [], items: [], hasQueuedPrompt: false }, -32601]);
  });

  it("relays session/update notifications of a live session with the running prompt's envelope", async () => {
    const d = createTestDaemon({
      agent: {
        prompt: async (params, peer) => {
          await peer.update(String(params.sessionId), {
            sessionUpdate: "agent_message_chunk",
            content: { type: "text", text: "hi" },
            extra: { kept: true },
          });
          return { stopReason: "end_turn" };
        },
      },
    });
    const { sessionId, clientId } = await d.createSession();
    const { promptId } = await (
      await d.request("POST", `/session/${sessionId}/prompt`, {
        body: { prompt: [{ type: "text", text: "x" }] },
        headers: { "X-Qwen-Client-Id": clientId },
      })
    ).json();
    const bus = d.sessions.require(sessionId).bus;
    await waitFor(() => bus.eventsAfter(0).some((e) => e.type === "turn_complete"), "turn end");
    const chunk = bus
      .eventsAfter(0)
      .find((e) => (e.data.update as { sessionUpdate?: string })?.sessionUpdate === "agent_message_chunk");
    expect(chunk).toMatchObject({
      type: "session_update",
      promptId,
      originatorClientId: clientId,
      data: { sessionId, update: { content: { type: "text", text: "hi" }, extra: { kept: true } } },
    });
  });
});

describe("childEnvironment", () => {
  it("passes the daemon's environment minus its token and the reference's private capabilities", () => {
    expect(
      childEnvironment({
        PATH: "/bin",
        OPENAI_API_KEY: "sk-x",
        QWEN_SERVER_TOKEN: "t",
        QWEN_CODE_PRIVATE_ACP_CAPABILITY: "c",
        QWEN_CODE_PRIVATE_EXTERNAL_TOOL_GUARD: "g",
      }),
    ).toEqual({ PATH: "/bin", OPENAI_API_KEY: "sk-x" });
  });
});
