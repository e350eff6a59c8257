import { describe, expect, it } from "vitest";
import { ResolvedRequests } from "./resolved-requests.js";

const selected = { outcome: "selected" as const, optionId: "allow" };

describe("ResolvedRequests", () => {
  it("forgets the oldest first (FIFO) once over capacity", () => {
    const fifo = new ResolvedRequests(2);
    for (const requestId of ["a", "b", "c"]) fifo.remember({ sessionId: "s", requestId, outcome: selected });
    expect(fifo.get("s", "a")).toBeUndefined();
    expect(fifo.get("s", "b")?.requestId).toBe("b");
    expect(fifo.get("s", "c")?.requestId).toBe("c");
    expect(fifo.size).toBe(2);
  });

  it("keys by session and request without collisions", () => {
    const fifo = new ResolvedRequests(10);
    fifo.remember({ sessionId: "a:b", requestId: "c", outcome: selected });
    expect(fifo.get("a", "b:c")).toBeUndefined();
    expect(fifo.get("a:b", "c")).toBeDefined();
  });

  it("finds the most recent record by request id for the legacy route", () => {
    const fifo = new ResolvedRequests(10);
    fifo.remember({ sessionId: "s1", requestId: "r", outcome: selected });
    fifo.remember({ sessionId: "s2", requestId: "r", outcome: { outcome: "cancelled" }, reason: "timeout" });
    expect(fifo.findByRequestId("r")?.sessionId).toBe("s2");
    expect(fifo.findByRequestId("x")).toBeUndefined();
  });

  it("capacity 0 remembers nothing; negative capacity is refused", () => {
    const none = new ResolvedRequests(0);
    none.remember({ sessionId: "s", requestId: "r", outcome: selected });
    expect(none.size).toBe(0);
    expect(() => new ResolvedRequests(-1)).toThrow(RangeError);
  });
});
