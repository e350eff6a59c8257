import { describe, expect, it } from "vitest";
import { oneLine, oneLinePerEntry } from "./log-line.js";

describe("oneLine", () => {
  it("escapes line breaks, terminal escapes and line separators; keeps tabs and ordinary text", () => {
    expect(oneLine("a\r\nqwen serve: forged")).toBe("a\\r\\nqwen serve: forged");
    expect(oneLine("\u001b[31mred\u0007")).toBe("\\u001b[31mred\\u0007");
    expect(oneLine("x\u2028y\u2029z\u0085")).toBe("x\\u2028y\\u2029z\\u0085");
    expect(oneLine("tab\there, ünïcode ✓")).toBe("tab\there, ünïcode ✓");
  });

  it("oneLinePerEntry hands the sink one line per entry", () => {
    const lines: string[] = [];
    oneLinePerEntry((l) => lines.push(l))("first\nsecond");
    expect(lines).toEqual(["first\\nsecond"]);
  });
});
