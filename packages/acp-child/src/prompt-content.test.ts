import { describe, expect, it } from "vitest";
import { promptToParts } from "./prompt-content.js";

describe("promptToParts", () => {
  it("maps text, links, embedded text and names what it cannot use", () => {
    expect(
      promptToParts([
        { type: "text", text: "hello" },
        { type: "resource_link", uri: "file:///w/a.ts", name: "a.ts" },
        { type: "resource", resource: { uri: "file:///w/b.ts", text: "code" } },
        { type: "resource", resource: { uri: "file:///w/c.bin", blob: "AAAA" } },
        { type: "image", data: "AAAA", mimeType: "image/png" },
      ]),
    ).toEqual([
      { text: "hello" },
      { text: "@file:///w/a.ts" },
      { text: "Content of file:///w/b.ts:\ncode" },
      { text: "[binary resource file:///w/c.bin omitted]" },
      { text: "[image content omitted: not supported by this agent]" },
    ]);
  });
});
