// A damaged answer journal: its good lines still apply, and the damage is logged and shown by /daemon/status.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { answersPath, jsonlSessionStorage } from "@qwen-daemon/core";
import { afterAll, describe, expect, it } from "vitest";
import { storedAnswerJournal } from "../answers/answer-journal.js";
import type { AnswerEntry } from "../answers/answer-record.js";
import { questionsKeyOf } from "../answers/journaled-answer.js";
import { questionRequest } from "../testing/question.js";
import { createTestDaemon, TEST_WORKSPACE, waitFor } from "../testing/test-daemon.js";

const SUBMIT = { outcome: "selected", optionId: "proceed_once" } as const;
const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describe("an answer journal with corrupt lines", () => {
  it("applies the good answer, logs the corrupt lines and counts them in /daemon/status", async () => {
    const root = mkdtempSync(join(tmpdir(), "qwen-journal-damage-"));
    roots.push(root);
    const question = questionRequest("s1");
    const answer: AnswerEntry = {
      v: 1,
      type: "answer",
      sessionId: "s1",
      toolCallId: "call-q1",
      questionsKey: questionsKeyOf(question.toolCall as Record<string, unknown>),
      outcome: SUBMIT,
      answers: { "0": "Blue" },
      requestId: "r-before",
      at: new Date().toISOString(),
    };
    const path = answersPath(root, TEST_WORKSPACE, "s1");
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `garbage line\n${JSON.stringify(answer)}\n{"v":1,"type":"nonsense"}\n`);

    const answers: unknown[] = [];
    const d = createTestDaemon({
      restoreAskUserQuestion: true,
      answerJournal: storedAnswerJournal(jsonlSessionStorage(root)),
      agent: {
        persisted: { s1: [] },
        restoreMeta: { s1: { "qwen.daemon.restoreAskUserQuestion": true } },
        prompt: async (params, peer) => {
          answers.push(await peer.requestPermission(questionRequest(String(params.sessionId))));
          return { stopReason: "end_turn" };
        },
      },
    });
    const load = await d.request("POST", "/session/s1/load", {
      body: {},
      headers: { "X-Qwen-Client-Id": "client_before_restart" },
    });
    expect(load.status).toBe(200);
    await waitFor(() => answers.length === 1, "journaled answer at the child");
    expect(answers[0]).toEqual({ outcome: SUBMIT, answers: { "0": "Blue" } });
    expect(d.logs.filter((l) => l.includes("corrupt line"))).toEqual([
      "qwen serve: answer journal of s1 has 2 corrupt line(s); they were skipped",
    ]);
    const status = await (await d.request("GET", "/daemon/status")).json();
    expect(status.answerJournal).toEqual({
      corruptLines: 2,
      sessions: [{ sessionId: "s1", corruptLines: 2, tornTail: false }],
    });
  });
});
