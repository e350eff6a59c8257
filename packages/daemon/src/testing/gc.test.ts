import { describe, expect, it } from "vitest";
import { collectGarbage } from "./gc.js";

describe("collectGarbage", () => {
  it("clears a WeakRef whose target nothing else holds, and keeps one that is held", async () => {
    const held = { kept: true };
    const refs = [tracked(), tracked(), new WeakRef(held)];
    await collectGarbage();
    expect(refs.map((ref) => ref.deref() !== undefined)).toEqual([false, false, true]);
    expect(held.kept).toBe(true);
  });
});

// In a function of its own, so no binding of the caller's frame keeps the object alive.
function tracked(): WeakRef<object> {
  return new WeakRef({ payload: "x".repeat(1000) });
}
