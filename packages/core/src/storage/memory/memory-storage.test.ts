import { describe, expect, it } from "vitest";
import { describeSessionStorageContract } from "../../testing/storage-contract.js";
import { memorySessionStorage } from "./memory-storage.js";

describeSessionStorageContract(
  "memory",
  async () => {
    let syncs = 0;
    const storage = memorySessionStorage({ onSync: () => syncs++ });
    return {
      storage,
      syncs: () => syncs,
      damage: async (key, kind, how) => storage.damage(key, kind, how),
      dispose: async () => {},
    };
  },
  { describe, it },
);

describe("memorySessionStorage", () => {
  it("refuses a relative cwd, as the file backend does", () => {
    expect(() =>
      memorySessionStorage().log({ cwd: "relative", sessionId: "s-1" }, "answers", (v) => v),
    ).toThrow(/absolute/);
  });

  it("shows a log's items without waiting (peek), none for a log that does not exist", async () => {
    const storage = memorySessionStorage();
    const key = { cwd: "/w", sessionId: "s-1" };
    expect(storage.peek(key, "answers", (v) => v)).toEqual([]);
    await storage.log(key, "answers", (v) => v).append({ n: 1 });
    expect(storage.peek(key, "answers", (v) => v)).toEqual([{ n: 1 }]);
  });
});
