import { describe, expect, it } from "vitest";
import { flattenCallResult } from "./call-result.js";

describe("flattenCallResult", () => {
  it("joins text and describes other blocks", () => {
    expect(
      flattenCallResult(
        {
          content: [
            { type: "text", text: "a" },
            { type: "image", mimeType: "image/png" },
            { type: "resource", resource: { uri: "file:///r", text: "inline" } },
            { type: "resource", resource: { uri: "file:///b" } },
            { type: "resource_link", uri: "file:///l", name: "l" },
          ],
        },
        "t",
      ),
    ).toEqual({
      output: [
        "a",
        "[Tool 't' provided image data with mime-type: image/png]",
        "inline",
        "[Tool 't' provided an embedded resource: file:///b]",
        "Resource Link: l at file:///l",
      ].join("\n"),
    });
  });
  it("maps isError to an error, and falls back to structured content", () => {
    expect(flattenCallResult({ isError: true, content: [{ type: "text", text: "boom" }] }, "t")).toEqual({
      error: "boom",
    });
    expect(flattenCallResult({ isError: true, content: [] }, "t")).toEqual({
      error: "MCP tool 't' reported an error without details.",
    });
    expect(flattenCallResult({ content: [], structuredContent: { n: 1 } }, "t")).toEqual({
      output: '{"n":1}',
    });
    expect(flattenCallResult({ toolResult: "legacy" }, "t")).toEqual({ output: "legacy" });
  });
});
