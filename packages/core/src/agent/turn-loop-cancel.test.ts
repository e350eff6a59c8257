// The turn loop cut short: a prompt cancelled while the model streams or while a permission or question
// waits, and a question that ends unattended (fixtures in turn-loop-fixtures.ts).
import { afterEach, describe, expect, it } from "vitest";
import { askUserQuestionCall, DEFAULT_QUESTION, reply } from "../testing/index.js";
import { createAskUserQuestionTool } from "../tools/ask-user-question.js";
import { TOOL_CANCELLED_BEFORE_EXECUTION_TEXT } from "../tools/ask-user-question-result.js";
import { Chat } from "./chat.js";
import { COLOR_ANSWER_TEXT, recordingTool } from "./test-support.js";
import { runTurn } from "./turn-loop.js";
import { closeTurnFixtures, setup, toolResults, userStart } from "./turn-loop-fixtures.js";

afterEach(closeTurnFixtures);

describe("runTurn", () => {
  it("cancels mid-stream: keeps the text already shown, drops the connection", async () => {
    const { server, deps, log, controller } = await setup([reply.stall({ text: "partial answer" })]);
    deps.onEvent = (event) => {
      if (event.type === "model_text") controller.abort();
    };
    expect((await runTurn(deps, userStart("talk"))).stopReason).toBe("cancelled");
    await server.waitForClientAbort(1);
    const assistant = log.find((l) => l.type === "assistant");
    const text = assistant?.type === "assistant" ? assistant.message.parts[0]?.text : undefined;
    expect(text && "partial answer".startsWith(text)).toBe(true);
    expect(log.at(-1)).toMatchObject({ type: "turn_result", data: { stopReason: "cancelled" } });
  });

  it("cancels while a permission waits: that call and the rest get the cancelled text", async () => {
    const deploy = recordingTool("deploy", "exec");
    const probe = recordingTool("probe", "none");
    const { deps, log, controller } = await setup(
      [
        reply.toolCalls([
          { name: "deploy", args: {} },
          { name: "probe", args: {} },
        ]),
      ],
      {
        tools: [deploy, probe],
        confirm: (_request, signal) =>
          new Promise((resolve) => {
            signal.addEventListener("abort", () => resolve({ outcome: "unattended", reason: "aborted" }));
            controller.abort();
          }),
      },
    );
    expect((await runTurn(deps, userStart("ship it"))).stopReason).toBe("cancelled");
    expect(deploy.calls).toEqual([]);
    expect(probe.calls).toEqual([]);
    expect(toolResults(log)).toEqual([
      { error: TOOL_CANCELLED_BEFORE_EXECUTION_TEXT },
      { error: TOOL_CANCELLED_BEFORE_EXECUTION_TEXT },
    ]);
  });

  it("cancels while a fresh question waits: it and the rest of the batch get the cancelled text, recorded", async () => {
    const probe = recordingTool("probe", "none");
    const later = recordingTool("later", "none");
    const { server, deps, log, controller } = await setup(
      [
        reply.toolCalls([
          { name: "probe", args: {} },
          { name: "ask_user_question", args: { questions: [DEFAULT_QUESTION] } },
          { name: "later", args: {} },
        ]),
      ],
      {
        tools: [probe, later, createAskUserQuestionTool()],
        // What the ACP child returns when session/cancel arrives while the question waits.
        confirm: (_request, signal) =>
          new Promise((resolve) => {
            signal.addEventListener("abort", () => resolve({ outcome: "unattended", reason: "aborted" }));
            controller.abort();
          }),
      },
    );
    // Not an unattended end: the cancel is recorded, so nothing is left dangling for a later load.
    expect(await runTurn(deps, userStart("go"))).toEqual({ stopReason: "cancelled", modelRequests: 1 });
    expect(server.requests).toHaveLength(1);
    expect(later.calls).toEqual([]);
    expect(toolResults(log)).toEqual([
      { output: "probe done" },
      { error: TOOL_CANCELLED_BEFORE_EXECUTION_TEXT },
      { error: TOOL_CANCELLED_BEFORE_EXECUTION_TEXT },
    ]);
    expect(
      log.filter((l) => l.type === "tool_result").map((l) => l.type === "tool_result" && l.result.status),
    ).toEqual(["success", "cancelled", "cancelled"]);
    expect(log.at(-1)).toEqual({ type: "turn_result", data: { stopReason: "cancelled", modelRequests: 1 } });
    expect(deps.chat.peekLastHistoryEntry()?.parts.map((p) => p.functionResponse?.response)).toEqual(
      toolResults(log),
    );
  });

  it("cancels while a restored question waits: records nothing, the calls stay dangling", async () => {
    const { deps, log, controller, confirm } = await setup([], {
      confirm: (_request, signal) =>
        new Promise((resolve) => {
          signal.addEventListener("abort", () => resolve({ outcome: "unattended", reason: "aborted" }));
          controller.abort();
        }),
    });
    const call = { id: "c_q", name: "ask_user_question", args: { questions: [DEFAULT_QUESTION] } };
    deps.chat = Chat.start(
      [
        { role: "user", parts: [{ text: "pick" }] },
        { role: "model", parts: [{ functionCall: call }] },
      ],
      { preserveCallIds: new Set(["c_q"]) },
    );
    expect(await runTurn(deps, { kind: "pending_calls", calls: [call] })).toEqual({
      stopReason: "cancelled",
      modelRequests: 0,
      unattended: "aborted",
    });
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(log.map((l) => l.type)).toEqual(["turn_result"]);
    expect(deps.chat.peekLastHistoryEntry()?.role).toBe("model");
  });

  it("records a question's answer even when the prompt is cancelled as it arrives", async () => {
    const { server, deps, log, controller } = await setup([askUserQuestionCall([DEFAULT_QUESTION])], {
      confirm: async () => {
        controller.abort();
        return { outcome: "approved", answers: { "0": "Blue" } };
      },
    });
    expect((await runTurn(deps, userStart("pick"))).stopReason).toBe("cancelled");
    expect(toolResults(log)).toEqual([{ output: COLOR_ANSWER_TEXT }]);
    expect(server.requests).toHaveLength(1);
  });

  it("records nothing for a batch whose question ends unattended, even results of calls already run", async () => {
    const probe = recordingTool("probe", "none");
    const { deps, log } = await setup(
      [
        reply.toolCalls([
          { name: "probe", args: {} },
          { name: "ask_user_question", args: { questions: [DEFAULT_QUESTION] } },
        ]),
      ],
      {
        tools: [probe, createAskUserQuestionTool()],
        confirm: async () => ({ outcome: "unattended", reason: "timeout" }),
      },
    );
    expect(await runTurn(deps, userStart("go"))).toEqual({
      stopReason: "end_turn",
      modelRequests: 1,
      unattended: "timeout",
    });
    expect(probe.calls).toHaveLength(1);
    expect(log.map((l) => l.type)).toEqual(["user", "assistant", "turn_result"]);
    expect(deps.chat.peekLastHistoryEntry()?.role).toBe("model");
  });
});
