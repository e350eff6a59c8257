import { describe, expect, it } from "vitest";
import { type Interaction, interactionOf } from "../interactions/interaction.js";
import { answerItemFields, type Resolution } from "./resolution.js";

const approval: Interaction = interactionOf(
  {
    requestId: "r1",
    sessionId: "s1",
    options: [
      { optionId: "proceed_once", name: "Allow", kind: "allow_once" },
      { optionId: "cancel", name: "Reject", kind: "reject_once" },
    ],
    toolCall: { toolCallId: "call_1", title: "Run ls", kind: "execute" },
  },
  "/ws",
  false,
);
const allowed = { outcome: { outcome: "selected", optionId: "proceed_once" } } as const;
const us = { clientId: "client_me", device: "web_device_me" };

function who(resolution: Resolution, people = false) {
  const fields = answerItemFields(approval, { ...allowed, ...resolution }, { ...us, people });
  return [fields.by, fields.detail];
}

describe("who answered", () => {
  it("you: this page's client, or any client naming this browser's device", () => {
    expect(who({ voterClientId: "client_me" })).toEqual(["you", undefined]);
    expect(who({ voterClientId: "client_tab2", voterDevice: "web_device_me" })).toEqual(["you", undefined]);
  });

  it("another device is yours, unless several people answer (consensus): then another person's", () => {
    expect(who({ voterClientId: "client_x", voterDevice: "web_device_phone" })).toEqual([
      "device",
      "on another of your devices",
    ]);
    expect(who({ voterClientId: "client_x", voterDevice: "web_device_phone" }, true)[0]).toBe("person");
  });

  it("a notification's link, by its label; the answer page says so", () => {
    expect(who({ voterClientId: "link:Allow once" })).toEqual([
      "link",
      "with the \u201cAllow once\u201d button of a notification",
    ]);
    expect(who({ voterClientId: "link:Answer" })[1]).toBe("on the answer page a notification linked to");
  });

  it("a client naming no device is another app; the journal is your kept answer", () => {
    expect(who({ voterClientId: "client_cli" })[0]).toBe("other");
    expect(who({ source: "answer_journal" })[0]).toBe("journal");
  });
});
