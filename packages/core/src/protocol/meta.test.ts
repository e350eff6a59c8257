import { describe, expect, it } from "vitest";
import { stripBlockMeta, stripDaemonMeta } from "./meta.js";

describe("stripDaemonMeta", () => {
  it("drops every qwen.daemon.* key and keeps the rest", () => {
    expect(
      stripDaemonMeta({
        "qwen.daemon.restoreAskUserQuestion": true,
        "qwen.daemon.promptId": "x",
        "qwen.daemon.anythingElse": 1,
        "qwen.session.loadReplayMode": "bulk",
        trace: "t",
      }),
    ).toEqual({ "qwen.session.loadReplayMode": "bulk", trace: "t" });
  });

  it("is undefined for nothing left or a non-object", () => {
    expect(stripDaemonMeta({ "qwen.daemon.promptId": "x" })).toBeUndefined();
    expect(stripDaemonMeta([1])).toBeUndefined();
    expect(stripDaemonMeta("meta")).toBeUndefined();
    expect(stripDaemonMeta(null)).toBeUndefined();
  });

  it("cleans a content block's own _meta", () => {
    expect(stripBlockMeta({ type: "text", text: "a", _meta: { "qwen.daemon.promptId": "x" } })).toEqual({
      type: "text",
      text: "a",
    });
    const plain = { type: "text", text: "a" };
    expect(stripBlockMeta(plain)).toBe(plain);
  });
});
