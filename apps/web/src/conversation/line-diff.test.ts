import { describe, expect, it } from "vitest";
import { lineDiff } from "./line-diff.js";

describe("lineDiff", () => {
  it("numbers context, removed and added lines in the old and new file", () => {
    const d = lineDiff("/ws/a.txt", "one\ntwo\nthree\n", "one\n2\nthree\nfour\n");
    expect(d).toMatchObject({ path: "/ws/a.txt", isNew: false, added: 2, removed: 1, hidden: 0 });
    expect(d.rows).toEqual([
      { kind: "hunk", text: "@@ -1,3 +1,4 @@" },
      { kind: "context", oldLine: 1, newLine: 1, text: "one" },
      { kind: "removed", oldLine: 2, text: "two" },
      { kind: "added", newLine: 2, text: "2" },
      { kind: "context", oldLine: 3, newLine: 3, text: "three" },
      { kind: "added", newLine: 4, text: "four" },
    ]);
  });

  it("a new file is all additions", () => {
    const d = lineDiff("n.md", null, "# Demo\n\nhi");
    expect(d.isNew).toBe(true);
    expect(d.removed).toBe(0);
    expect(d.rows.filter((r) => r.kind === "added").map((r) => ("text" in r ? r.text : ""))).toEqual([
      "# Demo",
      "",
      "hi",
    ]);
  });

  it("keeps only 3 lines of context around a change and caps what it shows", () => {
    const old = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join("\n");
    const changed = old.replace("line 25", "line twenty-five");
    const d = lineDiff("f", old, changed);
    expect(d.rows.filter((r) => r.kind === "context")).toHaveLength(6);
    const big = lineDiff("f", null, Array.from({ length: 1000 }, (_, i) => `${i}`).join("\n"), 100);
    expect(big.rows).toHaveLength(100);
    expect(big.hidden).toBe(901);
    expect(big.added).toBe(1000);
  });
});
