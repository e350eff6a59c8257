import { describe, expect, it } from "vitest";
import { echoedContent, MAX_ECHO_BLOCK_CHARS } from "./prompt-echo.js";

describe("echoedContent", () => {
  it("echoes an ordinary block as it is (the same object)", () => {
    const block = { type: "text", text: "hello", _meta: { mine: 1 } };
    expect(echoedContent(block)).toEqual({ content: block });
    expect(echoedContent(block).content).toBe(block);
  });

  it("clips a huge text block and says how long it was", () => {
    const text = "a".repeat(MAX_ECHO_BLOCK_CHARS * 3);
    const block = { type: "text", text, annotations: { priority: 1 } };
    const echoed = echoedContent(block);
    expect(echoed.content).toEqual({ type: "text", text: text.slice(0, MAX_ECHO_BLOCK_CHARS) });
    expect(echoed.truncated).toEqual({ originalBlockChars: JSON.stringify(block).length });
  });

  it("drops huge binary data and clips huge embedded resources; keeps their small fields", () => {
    const data = "QUJD".repeat(MAX_ECHO_BLOCK_CHARS);
    expect(echoedContent({ type: "image", mimeType: "image/png", data }).content).toEqual({
      type: "image",
      mimeType: "image/png",
      data: "",
    });
    const resource = {
      uri: "file:///big.txt",
      mimeType: "text/plain",
      text: "t".repeat(MAX_ECHO_BLOCK_CHARS + 10),
    };
    expect(echoedContent({ type: "resource", resource }).content).toEqual({
      type: "resource",
      resource: { uri: "file:///big.txt", mimeType: "text/plain", text: "t".repeat(MAX_ECHO_BLOCK_CHARS) },
    });
  });

  it("a block made huge by its _meta or annotations loses them", () => {
    const echoed = echoedContent({
      type: "text",
      text: "hi",
      _meta: { pad: "p".repeat(MAX_ECHO_BLOCK_CHARS) },
    });
    expect(echoed.content).toEqual({ type: "text", text: "hi" });
    expect(echoed.truncated?.originalBlockChars).toBeGreaterThan(MAX_ECHO_BLOCK_CHARS);
  });
});
