import { describe, expect, it } from "vitest";
import { agentTitleOf, configOptionsOf, modelOption, optionValues } from "./session-updates.js";

const model = {
  id: "model",
  name: "Model",
  type: "select",
  category: "model",
  currentValue: "a",
  options: [{ value: "a", name: "Model A" }, { value: "b" }, { value: 3 }],
};

describe("session updates", () => {
  it("reads an agent's title: one line, trimmed; nothing from other updates or an empty title", () => {
    expect(agentTitleOf({ sessionUpdate: "session_info_update", title: "  Fix the build \nmore" })).toBe(
      "Fix the build",
    );
    expect(agentTitleOf({ sessionUpdate: "session_info_update", title: "  " })).toBeUndefined();
    expect(agentTitleOf({ sessionUpdate: "session_info_update", title: null })).toBeUndefined();
    expect(agentTitleOf({ sessionUpdate: "agent_message_chunk", title: "x" })).toBeUndefined();
    expect(agentTitleOf("junk")).toBeUndefined();
  });

  it("reads config options, leaving out malformed ones", () => {
    expect(
      configOptionsOf({ sessionUpdate: "config_option_update", configOptions: [model, { id: 1 }] }),
    ).toEqual([model]);
    expect(configOptionsOf({ sessionUpdate: "config_option_update" })).toBeUndefined();
    expect(configOptionsOf({ sessionUpdate: "plan", configOptions: [model] })).toBeUndefined();
  });

  it("finds the model option and its values (a value without a name is named by itself)", () => {
    const mode = { id: "mode", name: "Mode", type: "select", category: "mode", currentValue: "default" };
    expect(modelOption([mode, model])).toBe(model);
    expect(modelOption([mode])).toBeUndefined();
    expect(optionValues(model)).toEqual([
      { value: "a", name: "Model A" },
      { value: "b", name: "b" },
    ]);
  });
});
