import { describe, expect, it } from "vitest";
import { ClientIds, freshClientIdHint } from "./client-ids.js";

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

describe("client ids", () => {
  it("offers a hint the daemon accepts as a client id", () => {
    const hint = freshClientIdHint((b) => b.fill(0xab));
    expect(hint).toBe(`web_${"ab".repeat(12)}`);
    expect(hint).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
  });

  it("remembers the id per session, newest 50 only", () => {
    const storage = memoryStorage();
    const ids = new ClientIds(storage);
    for (let i = 0; i < 55; i++) ids.set(`s${i}`, `client_${i}`);
    ids.set("s10", "client_again");
    expect(ids.get("s54")).toBe("client_54");
    expect(ids.get("s10")).toBe("client_again");
    expect(ids.get("s4")).toBeUndefined();
    expect(ids.get("s5")).toBe("client_5");
    expect(Object.keys(JSON.parse(storage.map.values().next().value as string))).toHaveLength(50);
  });

  it("survives a corrupted entry and a browser without storage", () => {
    const storage = memoryStorage();
    storage.setItem("qwen-serve.clientIds", "{not json");
    expect(new ClientIds(storage).get("s")).toBeUndefined();
    const none = new ClientIds(undefined);
    none.set("s", "c");
    expect(none.get("s")).toBeUndefined();
  });
});
