import { describe, expect, it } from "vitest";
import { linkChoices, linkUrl, signedActions } from "./link-actions.js";

const questionOptions = [
  { optionId: "proceed_once", name: "Submit", kind: "allow_once" },
  { optionId: "cancel", name: "Cancel", kind: "reject_once" },
];
const question = (options: string[], multiSelect = false) => ({ question: "Which?", options, multiSelect });

describe("answer actions", () => {
  it("a single single-choice question: one per option, then Decline", () => {
    const choices = linkChoices(
      { type: "question_waiting", sessionId: "s", toolCallId: "c", questions: [question(["Blue", "Green"])] },
      questionOptions,
    );
    expect(choices).toEqual([
      {
        label: "Blue",
        decision: {
          kind: "vote",
          vote: { outcome: { outcome: "selected", optionId: "proceed_once" }, answers: { "0": "Blue" } },
        },
      },
      {
        label: "Green",
        decision: {
          kind: "vote",
          vote: { outcome: { outcome: "selected", optionId: "proceed_once" }, answers: { "0": "Green" } },
        },
      },
      { label: "Decline", decision: { kind: "vote", vote: { outcome: { outcome: "cancelled" } } } },
    ]);
  });

  it("several parts or multi-select: the answer page", () => {
    const page = [{ label: "Answer", decision: { kind: "page" } }];
    const subject = { type: "question_waiting", sessionId: "s", toolCallId: "c" };
    expect(linkChoices({ ...subject, questions: [question(["A", "B"], true)] }, questionOptions)).toEqual(
      page,
    );
    expect(
      linkChoices({ ...subject, questions: [question(["A", "B"]), question(["C", "D"])] }, questionOptions),
    ).toEqual(page);
  });

  it("approvals: Allow once, Reject, and Allow always only where offered", () => {
    const subject = { type: "approval_waiting", sessionId: "s", toolCallId: "c" };
    const labels = (offered: { optionId: string; name: string; kind: string }[]) =>
      linkChoices(subject, offered).map((c) => c.label);
    expect(
      labels([
        { optionId: "proceed_always", name: "Always", kind: "allow_always" },
        { optionId: "proceed_once", name: "Allow", kind: "allow_once" },
        { optionId: "cancel", name: "Reject", kind: "reject_once" },
      ]),
    ).toEqual(["Allow once", "Reject", "Allow always"]);
    expect(
      labels([
        { optionId: "proceed_once", name: "Allow", kind: "allow_once" },
        { optionId: "cancel", name: "Reject", kind: "reject_once" },
      ]),
    ).toEqual(["Allow once", "Reject"]);
  });

  it("nothing without a tool call id, nothing for turn events", () => {
    expect(
      linkChoices(
        { type: "question_waiting", sessionId: "s", questions: [question(["A", "B"])] },
        questionOptions,
      ),
    ).toEqual([]);
    expect(linkChoices({ type: "turn_completed", sessionId: "s", toolCallId: "c" }, questionOptions)).toEqual(
      [],
    );
  });

  it("signs each choice for the session and call, with the expiry and a fresh nonce, under the base's path", () => {
    let n = 0;
    const signed: unknown[] = [];
    const actions = signedActions(
      { sessionId: "s", toolCallId: "c" },
      [
        {
          label: "Allow once",
          decision: { kind: "vote", vote: { outcome: { outcome: "selected", optionId: "proceed_once" } } },
        },
        { label: "Answer", decision: { kind: "page" } },
      ],
      {
        base: "https://example.org/qwen/",
        ttlMs: 60_000,
        nowMs: 1_000_000,
        nonce: () => `nonce-${++n}xxxx`,
        sign: (cap) => {
          signed.push(cap);
          return `tok${signed.length}`;
        },
      },
    );
    expect(actions).toEqual([
      {
        label: "Allow once",
        url: "https://example.org/qwen/a/tok1",
        method: "POST",
        answer: { outcome: { outcome: "selected", optionId: "proceed_once" } },
      },
      { label: "Answer", url: "https://example.org/qwen/a/tok2", method: "GET" },
    ]);
    expect(signed[0]).toMatchObject({ v: 1, s: "s", t: "c", l: "Allow once", e: 1060, n: "nonce-1xxxx" });
    expect(signed[1]).toMatchObject({ n: "nonce-2xxxx", d: { kind: "page" } });
    expect(linkUrl("http://127.0.0.1:4170", "t")).toBe("http://127.0.0.1:4170/a/t");
  });
});
