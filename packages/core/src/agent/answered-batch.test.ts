import { describe, expect, it } from "vitest";
import type { Content } from "../content.js";
import { ORPHAN_TOOL_RESULT_TEXT } from "../history/orphan-repair.js";
import { DEFAULT_QUESTION } from "../testing/index.js";
import { type AnsweredBatch, answeredBatchResults, type GivenAnswer } from "./answered-batch.js";
import { COLOR_ANSWER_TEXT } from "./test-support.js";

const ask = (id: string, questions: unknown[] = [DEFAULT_QUESTION]) => ({
  functionCall: { id, name: "ask_user_question", args: { questions } },
});
const list = (id: string) => ({ functionCall: { id, name: "list_directory", args: { path: "." } } });
const model = (...parts: Content["parts"]): Content => ({ role: "model", parts });
const given = (entries: [string, GivenAnswer][]) => new Map(entries);
const blue: GivenAnswer = { outcome: "approved", answers: { "0": "Blue" } };

const responses = (batch: AnsweredBatch | undefined) =>
  batch?.results.map((r) => ({ part: r.message.parts[0]?.functionResponse, status: r.result.status }));

describe("answeredBatchResults", () => {
  it("answers the question and fails every other call of a mixed batch, in call order", () => {
    const batch = answeredBatchResults(
      [model({ text: "Let me look and ask." }, list("l1"), ask("q1"))],
      given([["q1", blue]]),
    );
    expect(batch?.answeredCallIds).toEqual(["q1"]);
    expect(batch?.callIds).toEqual(["l1", "q1"]);
    expect(responses(batch)).toEqual([
      {
        part: { id: "l1", name: "list_directory", response: { error: ORPHAN_TOOL_RESULT_TEXT } },
        status: "error",
      },
      {
        part: { id: "q1", name: "ask_user_question", response: { output: COLOR_ANSWER_TEXT } },
        status: "success",
      },
    ]);
    // Each result is its own user entry, as the turn loop records one tool_result per call.
    expect(batch?.results.every((r) => r.message.role === "user" && r.message.parts.length === 1)).toBe(true);
    expect(batch?.results[1]?.result).toEqual({
      callId: "q1",
      status: "success",
      resultDisplay: COLOR_ANSWER_TEXT,
    });
  });

  it("a user's no is the cancel text; an unanswered question of the batch gets the orphan text", () => {
    const batch = answeredBatchResults(
      [model(ask("q1"), ask("q2"))],
      given([["q2", { outcome: "rejected" }]]),
    );
    expect(batch?.answeredCallIds).toEqual(["q2"]);
    expect(responses(batch)).toEqual([
      {
        part: { id: "q1", name: "ask_user_question", response: { error: ORPHAN_TOOL_RESULT_TEXT } },
        status: "error",
      },
      {
        part: {
          id: "q2",
          name: "ask_user_question",
          response: { error: 'Tool "ask_user_question" was canceled by the user.' },
        },
        status: "cancelled",
      },
    ]);
  });

  it("is undefined when nothing of the batch is answered, or there is no batch", () => {
    expect(answeredBatchResults([model(list("l1"), ask("q1"))], given([["other", blue]]))).toBeUndefined();
    expect(answeredBatchResults([model({ text: "done" })], given([["q1", blue]]))).toBeUndefined();
    expect(
      answeredBatchResults([{ role: "user", parts: [{ text: "hi" }] }], given([["q1", blue]])),
    ).toBeUndefined();
    expect(answeredBatchResults([], given([["q1", blue]]))).toBeUndefined();
  });

  it("never uses an answer for a call that is not a valid question (it was never asked)", () => {
    const oneOption = [{ ...DEFAULT_QUESTION, options: [DEFAULT_QUESTION.options[0]] }];
    expect(answeredBatchResults([model(ask("q1", oneOption))], given([["q1", blue]]))).toBeUndefined();
    const named = { functionCall: { id: "q1", name: "list_directory", args: {} } };
    expect(answeredBatchResults([model(named)], given([["q1", blue]]))).toBeUndefined();
  });

  it("answers a repeated call id once and ignores calls without an id", () => {
    const batch = answeredBatchResults(
      [model(ask("q1"), ask("q1"), { functionCall: { name: "list_directory", args: {} } })],
      given([["q1", blue]]),
    );
    expect(batch?.callIds).toEqual(["q1"]);
    expect(batch?.results).toHaveLength(1);
  });

  it("closes only what a batch cut short while its results were written still lacks", () => {
    const partial: Content = {
      role: "user",
      parts: [{ functionResponse: { id: "l1", name: "list_directory", response: { output: "a.txt" } } }],
    };
    const batch = answeredBatchResults([model(list("l1"), ask("q1")), partial], given([["q1", blue]]));
    expect(batch?.callIds).toEqual(["q1"]);
    expect(responses(batch)).toEqual([
      {
        part: { id: "q1", name: "ask_user_question", response: { output: COLOR_ANSWER_TEXT } },
        status: "success",
      },
    ]);
    // A user turn with text after the batch is a later prompt: the batch is not open any more.
    const prompt: Content = { role: "user", parts: [{ text: "go on" }] };
    expect(answeredBatchResults([model(ask("q1")), prompt], given([["q1", blue]]))).toBeUndefined();
  });
});
