import { describe, expect, it } from "vitest";
import { KeyedSerializer } from "./keyed-serializer.js";

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe("KeyedSerializer", () => {
  it("runs tasks of one key one at a time in call order", async () => {
    const serial = new KeyedSerializer();
    const log: string[] = [];
    const gate = deferred();
    const first = serial.run("k", async () => {
      log.push("first start");
      await gate.promise;
      log.push("first end");
      return 1;
    });
    const second = serial.run("k", () => {
      log.push("second");
      return 2;
    });
    await new Promise((r) => setImmediate(r));
    expect(log).toEqual(["first start"]);
    gate.resolve();
    expect(await Promise.all([first, second])).toEqual([1, 2]);
    expect(log).toEqual(["first start", "first end", "second"]);
    expect(serial.activeKeys).toBe(0);
  });

  it("other keys do not wait", async () => {
    const serial = new KeyedSerializer();
    const gate = deferred();
    const blocked = serial.run("a", () => gate.promise);
    expect(await serial.run("b", () => "b done")).toBe("b done");
    gate.resolve();
    await blocked;
  });

  it("a failing task rejects its own caller only; the next one still runs", async () => {
    const serial = new KeyedSerializer();
    const failing = serial.run("k", () => Promise.reject(new Error("boom")));
    const next = serial.run("k", () => "ran");
    await expect(failing).rejects.toThrow("boom");
    expect(await next).toBe("ran");
  });
});
