import { describe, expect, it } from "vitest";
import { decideRestoreAdmission, knownRestoreRefusal } from "./restore-admission.js";
import { isIdle } from "./session-state.js";

const idle = { promptActive: false, pendingPromptCount: 0 };

describe("decideRestoreAdmission", () => {
  it("admits only with hint + switch + client id + idle session", () => {
    expect(
      decideRestoreAdmission({ hint: true, switchOn: true, requestedClientId: "c", activity: idle }),
    ).toEqual({
      admit: true,
    });
  });

  it.each([
    [{ hint: false, switchOn: true, requestedClientId: "c", activity: idle }, "no_hint"],
    [{ hint: true, switchOn: false, requestedClientId: "c", activity: idle }, "switch_off"],
    [{ hint: true, switchOn: true, requestedClientId: undefined, activity: idle }, "no_client"],
    [
      { hint: true, switchOn: true, requestedClientId: "c", activity: { ...idle, promptActive: true } },
      "busy",
    ],
    [
      { hint: true, switchOn: true, requestedClientId: "c", activity: { ...idle, pendingPromptCount: 1 } },
      "busy",
    ],
  ])("refuses %o with %s", (input, reason) => {
    expect(decideRestoreAdmission(input)).toEqual({ admit: false, reason });
  });
});

describe("knownRestoreRefusal (suppress key on the child-bound request)", () => {
  it("is known for switch off, no client id and a busy session; unknown otherwise", () => {
    expect(knownRestoreRefusal({ switchOn: false, requestedClientId: "c", activity: idle })).toBe(
      "switch_off",
    );
    expect(knownRestoreRefusal({ switchOn: true, requestedClientId: undefined, activity: idle })).toBe(
      "no_client",
    );
    expect(
      knownRestoreRefusal({
        switchOn: true,
        requestedClientId: "c",
        activity: { ...idle, pendingPromptCount: 2 },
      }),
    ).toBe("busy");
    expect(knownRestoreRefusal({ switchOn: true, requestedClientId: "c", activity: idle })).toBeUndefined();
  });

  it("isIdle needs no prompt running and none queued", () => {
    expect(isIdle(idle)).toBe(true);
    expect(isIdle({ ...idle, promptActive: true })).toBe(false);
    expect(isIdle({ ...idle, pendingPromptCount: 1 })).toBe(false);
  });
});
