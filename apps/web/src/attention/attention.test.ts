import { describe, expect, it } from "vitest";
import { interactionOf } from "../interactions/interaction.js";
import { notificationFor } from "./attention.js";

const question = interactionOf(
  {
    requestId: "r1",
    options: [],
    toolCall: {
      toolCallId: "call_1",
      _meta: {
        qwenInteractionKind: "user_question",
        qwenQuestions: [{ question: "Which colour?", options: [{ label: "Red" }] }],
      },
    },
  },
  "/ws",
);
const command = interactionOf(
  {
    requestId: "r2",
    options: [],
    toolCall: { toolCallId: "call_2", title: "npm test", rawInput: { command: "npm test" } },
  },
  "/ws",
);
const session = { id: "s1", title: "Paint the fence" };

describe("notificationFor", () => {
  it("notifies only a hidden page that has permission", () => {
    expect(notificationFor(question, session, { hidden: false, permission: "granted" })).toBeUndefined();
    expect(notificationFor(question, session, { hidden: true, permission: "default" })).toBeUndefined();
    expect(notificationFor(question, session, { hidden: true, permission: "denied" })).toBeUndefined();
    expect(notificationFor(question, session, { hidden: true, permission: "granted" })).toEqual({
      title: "The agent asks you",
      body: "Paint the fence: Which colour?",
      tag: "s1:call_1",
    });
  });

  it("says what an approval is for, and that a restored question is asked again", () => {
    expect(notificationFor(command, session, { hidden: true, permission: "granted" })).toMatchObject({
      title: "The agent asks for your approval",
      body: "Paint the fence: Run: npm test",
      tag: "s1:call_2",
    });
    expect(
      notificationFor({ ...question, restored: true }, session, { hidden: true, permission: "granted" })
        ?.title,
    ).toBe("The agent is asking you again");
  });
});
