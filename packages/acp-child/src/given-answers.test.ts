import { describe, expect, it } from "vitest";
import { givenAnswersOf } from "./given-answers.js";

const KEY = "qwen.daemon.journaledAnswers";
function logger() {
  const warnings: string[] = [];
  return { warnings, log: { info: () => {}, warn: (m: string) => warnings.push(m), error: () => {} } };
}

describe("givenAnswersOf", () => {
  it("reads each journaled answer as the same vote would be read live", () => {
    const { log, warnings } = logger();
    const answers = givenAnswersOf(
      {
        [KEY]: {
          call_a: { outcome: { outcome: "selected", optionId: "proceed_once" }, answers: { "0": "Blue" } },
          call_b: { outcome: { outcome: "cancelled" } },
          // Nobody was there: not an answer, so nothing is given for it.
          call_c: {
            outcome: { outcome: "cancelled" },
            _meta: { "qwen.daemon.permissionCancelReason": "timeout" },
          },
        },
      },
      log,
    );
    expect(answers && Object.fromEntries(answers)).toEqual({
      call_a: { outcome: "approved", answers: { "0": "Blue" } },
      call_b: { outcome: "rejected" },
    });
    expect(warnings).toEqual([]);
  });

  it("is undefined without the key or without any answer in it", () => {
    const { log } = logger();
    expect(givenAnswersOf(undefined, log)).toBeUndefined();
    expect(givenAnswersOf({ other: 1 }, log)).toBeUndefined();
    expect(givenAnswersOf({ [KEY]: {} }, log)).toBeUndefined();
  });

  it("ignores a malformed value, with a warning", () => {
    for (const value of ["yes", [1], { call_a: { outcome: "selected" } }, { call_a: null }]) {
      const { log, warnings } = logger();
      expect(givenAnswersOf({ [KEY]: value }, log)).toBeUndefined();
      expect(warnings).toHaveLength(1);
    }
  });
});
