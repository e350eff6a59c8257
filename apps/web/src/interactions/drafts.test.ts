import { describe, expect, it } from "vitest";
import { Drafts, leftAfterSend } from "./drafts.js";

function memoryStorage() {
  const map = new Map<string, string>();
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => {
      map.set(k, v);
    },
    map,
  };
}

describe("Drafts", () => {
  it("keeps the message box and each question's selection per session, across instances (a reload)", () => {
    const storage = memoryStorage();
    const a = new Drafts(storage);
    a.setComposer("s1", "half a thought");
    a.setSelection("s1", "k1", [{ picked: ["Red"] }, { picked: [], other: "teal" }]);
    a.setComposer("s2", "other");
    const b = new Drafts(storage);
    expect(b.composer("s1")).toBe("half a thought");
    expect(b.selection("s1", "k1")).toEqual([{ picked: ["Red"] }, { picked: [], other: "teal" }]);
    expect(b.selection("s2", "k1")).toBeUndefined();
    b.clearSelection("s1", "k1");
    b.setComposer("s1", "");
    expect(a.selection("s1", "k1")).toBeUndefined();
    expect(a.composer("s1")).toBe("");
    expect(JSON.parse(storage.map.get("qwen-serve.drafts") ?? "{}")).toEqual({ s2: { composer: "other" } });
  });

  it("survives corrupt or hostile storage and missing storage", () => {
    const storage = memoryStorage();
    storage.setItem("qwen-serve.drafts", "{not json");
    expect(new Drafts(storage).composer("s")).toBe("");
    storage.setItem(
      "qwen-serve.drafts",
      JSON.stringify({ s: { selections: { k: [{ picked: [1, "A"], other: 2 }] } } }),
    );
    expect(new Drafts(storage).selection("s", "k")).toEqual([{ picked: ["A"] }]);
    const none = new Drafts(undefined);
    none.setComposer("s", "x");
    expect(none.composer("s")).toBe("");
  });

  it("stays small: the newest 20 sessions", () => {
    const storage = memoryStorage();
    const d = new Drafts(storage);
    for (let i = 0; i < 25; i++) d.setComposer(`s${i}`, `t${i}`);
    expect(d.composer("s0")).toBe("");
    expect(d.composer("s24")).toBe("t24");
    expect(Object.keys(JSON.parse(storage.map.get("qwen-serve.drafts") ?? "{}"))).toHaveLength(20);
  });

  it("takes only the sent text out of the box: what was typed while it was on its way stays", () => {
    expect(leftAfterSend("  Plan my week \n", "Plan my week")).toBe("");
    expect(leftAfterSend("Plan my week\nand the next", "Plan my week")).toBe("and the next");
    expect(leftAfterSend("Plan my week, then rest", "Plan my week")).toBe(", then rest");
    expect(leftAfterSend("something else", "Plan my week")).toBe("something else");
    expect(leftAfterSend("", "Plan my week")).toBe("");
  });
});
