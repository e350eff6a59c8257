// The turn loop against the fake OpenAI server over real HTTP, with an in-memory recorder.
// Session-level behaviour (transcript on disk, ledger, restore) is in agent-session.test.ts.
import { afterEach, describe, expect, it, vi } from "vitest";
import { ModelError } from "../model/provider.js";
import {
  askUserQuestionCall,
  DEFAULT_QUESTION,
  messageText,
  reply,
  trailingToolMessages,
} from "../testing/index.js";
import { planModeDenialText } from "../tools/approval.js";
import { createAskUserQuestionTool } from "../tools/ask-user-question.js";
import { COLOR_ANSWER_TEXT, recordingTool } from "./test-support.js";
import { SKIPPED_AFTER_PERMISSION_CANCEL_TEXT, toolNotFoundText } from "./tool-result-texts.js";
import { runTurn } from "./turn-loop.js";
import { closeTurnFixtures, setup, toolResults, userStart } from "./turn-loop-fixtures.js";

afterEach(closeTurnFixtures);

describe("runTurn", () => {
  it("answers a question with the formatted answers and continues the turn", async () => {
    const { server, deps, log, events } = await setup(
      [askUserQuestionCall([DEFAULT_QUESTION]), reply.text("Blue it is.")],
      {
        confirm: async () => ({ outcome: "approved", answers: { "0": "Blue" } }),
      },
    );
    const outcome = await runTurn(deps, userStart("pick a color"));
    expect(outcome).toEqual({ stopReason: "end_turn", modelRequests: 2 });
    expect(trailingToolMessages(server.requests[1]!).map((m) => m.content)).toEqual([COLOR_ANSWER_TEXT]);
    expect(log.map((l) => l.type)).toEqual(["user", "assistant", "tool_result", "assistant", "turn_result"]);
    expect(
      events.filter((e) => e.type === "tool_call" || e.type === "tool_call_update").map((e) => e.status),
    ).toEqual(["pending", "completed"]);
    expect(
      events
        .filter((e) => e.type === "model_text")
        .map((e) => (e.type === "model_text" ? e.text : ""))
        .join(""),
    ).toBe("Blue it is.");
  });

  it("turns invalid question arguments into the validation text without asking", async () => {
    const oneOption = {
      questions: [{ question: "Q?", header: "H", options: [{ label: "a", description: "b" }] }],
    };
    const { server, deps, confirm, log } = await setup([
      reply.toolCall("ask_user_question", oneOption),
      reply.text("Sorry."),
    ]);
    expect((await runTurn(deps, userStart("ask me"))).stopReason).toBe("end_turn");
    expect(confirm).not.toHaveBeenCalled();
    expect(trailingToolMessages(server.requests[1]!).map((m) => m.content)).toEqual([
      'Question 1: "options" must contain between 2 and 4 options.',
    ]);
    expect(log.find((l) => l.type === "tool_result")).toMatchObject({ result: { status: "error" } });
  });

  it("ends the turn when the user rejects a tool; later calls of the batch are skipped, not run", async () => {
    const deploy = recordingTool("deploy", "exec");
    const probe = recordingTool("probe", "none");
    const { server, deps, log } = await setup(
      [
        reply.toolCalls([
          { name: "deploy", args: {} },
          { name: "probe", args: {} },
        ]),
      ],
      { tools: [deploy, probe], confirm: async () => ({ outcome: "rejected" }) },
    );
    expect(await runTurn(deps, userStart("ship it"))).toMatchObject({
      stopReason: "end_turn",
      modelRequests: 1,
    });
    expect(server.requests).toHaveLength(1);
    expect(deploy.calls).toEqual([]);
    expect(probe.calls).toEqual([]);
    expect(toolResults(log)).toEqual([
      { error: 'Tool "deploy" was canceled by the user.' },
      { error: SKIPPED_AFTER_PERMISSION_CANCEL_TEXT },
    ]);
    // The chat holds the refusal, so the model sees it with the next prompt.
    expect(deps.chat.peekLastHistoryEntry()?.parts.map((p) => p.functionResponse?.response)).toEqual(
      toolResults(log),
    );
  });

  it("stops at the max-turns guard", async () => {
    const probe = recordingTool("probe", "none");
    const { server, deps, log } = await setup(() => reply.toolCall("probe", {}), {
      tools: [probe],
      maxTurns: 3,
    });
    expect(await runTurn(deps, userStart("loop forever"))).toEqual({
      stopReason: "max_turn_requests",
      modelRequests: 3,
    });
    expect(server.requests).toHaveLength(3);
    expect(probe.calls).toHaveLength(3);
    expect(log.at(-1)).toEqual({
      type: "turn_result",
      data: { stopReason: "max_turn_requests", modelRequests: 3 },
    });
  });

  it("answers an unknown tool with an error and lets the model go on", async () => {
    const { server, deps } = await setup([reply.toolCall("nope", {}), reply.text("ok")]);
    expect((await runTurn(deps, userStart("x"))).stopReason).toBe("end_turn");
    expect(trailingToolMessages(server.requests[1]!)[0]?.content).toBe(toolNotFoundText("nope"));
  });

  it("tells the model when its arguments are not a JSON object", async () => {
    const probe = recordingTool("probe", "none");
    const { server, deps } = await setup([reply.toolCall("probe", "{not json"), reply.text("ok")], {
      tools: [probe],
    });
    await runTurn(deps, userStart("x"));
    expect(probe.calls).toEqual([]);
    expect(trailingToolMessages(server.requests[1]!)[0]?.content).toMatch(
      /^Tool "probe" was called with arguments that are not a JSON object/,
    );
  });

  it("refuses edits in plan mode without asking", async () => {
    const patch = recordingTool("patch", "edit");
    const { server, deps, confirm } = await setup([reply.toolCall("patch", {}), reply.text("ok")], {
      tools: [patch],
      approvalMode: "plan",
    });
    await runTurn(deps, userStart("x"));
    expect(confirm).not.toHaveBeenCalled();
    expect(patch.calls).toEqual([]);
    expect(trailingToolMessages(server.requests[1]!)[0]?.content).toBe(planModeDenialText("patch"));
  });

  it("stops asking for a kind the user allowed always", async () => {
    const deploy = recordingTool("deploy", "exec");
    const { deps, confirm } = await setup(
      [reply.toolCall("deploy", {}), reply.toolCall("deploy", {}), reply.text("done")],
      {
        tools: [deploy],
        confirm: async () => ({ outcome: "approved_always" }),
      },
    );
    expect((await runTurn(deps, userStart("x"))).stopReason).toBe("end_turn");
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(deploy.calls).toHaveLength(2);
    expect(deps.alwaysAllowed.has("exec")).toBe(true);
  });

  it("asks beforeExecute after confirmation; a denial is the call's error result and the turn goes on", async () => {
    const deploy = recordingTool("deploy", "exec");
    const probe = recordingTool("probe", "none");
    const order: string[] = [];
    const { server, deps, log, events } = await setup(
      [
        reply.toolCalls([
          { name: "deploy", args: { target: "prod" }, id: "c_deploy" },
          { name: "probe", args: {}, id: "c_probe" },
          { name: "ask_user_question", args: { questions: [DEFAULT_QUESTION] }, id: "c_q" },
        ]),
        reply.text("ok"),
      ],
      {
        tools: [deploy, probe, createAskUserQuestionTool()],
        confirm: async (request) => {
          order.push(`confirm ${request.call.name}`);
          return { outcome: "approved", answers: { "0": "Blue" } };
        },
      },
    );
    const beforeExecute = vi.fn(async (call: { name: string }, ctx: { cwd: string; signal: AbortSignal }) => {
      order.push(`guard ${call.name}`);
      expect(ctx.cwd).toBe(deps.cwd);
      expect(ctx.signal).toBe(deps.signal);
      return call.name === "deploy"
        ? { allowed: false as const, reason: "Blocked by the host: not in a worktree" }
        : { allowed: true as const };
    });
    deps.beforeExecute = beforeExecute;
    expect(await runTurn(deps, userStart("ship it"))).toEqual({ stopReason: "end_turn", modelRequests: 2 });
    // Questions do not execute, so the hook never sees them; each executing call is checked once, after confirm.
    expect(order).toEqual(["confirm deploy", "guard deploy", "guard probe", "confirm ask_user_question"]);
    expect(beforeExecute.mock.calls[0]![0]).toEqual({
      id: "c_deploy",
      name: "deploy",
      args: { target: "prod" },
    });
    expect(deploy.calls).toEqual([]);
    expect(probe.calls).toHaveLength(1);
    expect(toolResults(log)).toEqual([
      { error: "Blocked by the host: not in a worktree" },
      { output: "probe done" },
      { output: COLOR_ANSWER_TEXT },
    ]);
    expect(log.find((l) => l.type === "tool_result")).toMatchObject({
      result: { callId: "c_deploy", status: "error" },
    });
    expect(trailingToolMessages(server.requests[1]!).map((m) => m.content)[0]).toBe(
      "Blocked by the host: not in a worktree",
    );
    // A denied call never shows as running.
    expect(
      events.flatMap((e) => (e.type === "tool_call_update" && e.callId === "c_deploy" ? [e.status] : [])),
    ).toEqual(["failed"]);
  });

  it("fails the call closed when beforeExecute throws", async () => {
    const deploy = recordingTool("deploy", "none");
    const { deps, log } = await setup([reply.toolCall("deploy", {}), reply.text("ok")], { tools: [deploy] });
    deps.beforeExecute = async () => {
      throw new Error("guard unreachable");
    };
    expect((await runTurn(deps, userStart("x"))).stopReason).toBe("end_turn");
    expect(deploy.calls).toEqual([]);
    expect(toolResults(log)).toEqual([{ error: "guard unreachable" }]);
  });

  it("ends the turn with the ModelError after recording it in turn_result", async () => {
    const { deps, log } = await setup([reply.error(400, { message: "bad request here" })]);
    const error = await runTurn(deps, userStart("x")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).kind).toBe("bad_request");
    expect(log.at(-1)).toMatchObject({
      type: "turn_result",
      data: { error: { kind: "bad_request", status: 400 } },
    });
  });

  it("sends what the user typed and streams the model's reply as events", async () => {
    const { server, deps, events } = await setup([
      reply.text("Hello there", { reasoning: "thinking", deltas: 2 }),
    ]);
    await runTurn(deps, userStart("hi"));
    expect(messageText(server.requests[0]!.messages.at(-1))).toBe("hi");
    expect(events.filter((e) => e.type === "thought").length).toBeGreaterThan(0);
    expect(events.filter((e) => e.type === "model_text")).toHaveLength(2);
    expect(deps.chat.peekLastHistoryEntry()).toEqual({
      role: "model",
      parts: [{ text: "thinking", thought: true }, { text: "Hello there" }],
    });
  });

  it("refuses pending calls that are not the last model entry's calls", async () => {
    const { deps } = await setup([]);
    await expect(
      runTurn(deps, { kind: "pending_calls", calls: [{ id: "c1", name: "ask_user_question", args: {} }] }),
    ).rejects.toThrow(/not a pending call/);
  });
});
