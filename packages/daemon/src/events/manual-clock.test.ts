import { describe, expect, it } from "vitest";
import { ManualClock } from "./manual-clock.js";

describe("ManualClock", () => {
  it("fires due timers in deadline order, including ones scheduled while advancing", () => {
    const clock = new ManualClock(100);
    const fired: string[] = [];
    clock.setTimeout(() => fired.push(`b@${clock.now()}`), 20);
    clock.setTimeout(() => {
      fired.push(`a@${clock.now()}`);
      clock.setTimeout(() => fired.push(`c@${clock.now()}`), 5);
    }, 10);
    const cancelled = clock.setTimeout(() => fired.push("never"), 15);
    clock.clearTimeout(cancelled);
    clock.advance(19);
    expect(fired).toEqual(["a@110", "c@115"]);
    expect(clock.now()).toBe(119);
    clock.advance(1);
    expect(fired).toEqual(["a@110", "c@115", "b@120"]);
    expect(clock.pendingTimers).toBe(0);
  });
});
