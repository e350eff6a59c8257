// The daemon's restore handling walked with a synthetic third row beside the contract's table: a load request
// carries its suppress key when the daemon will refuse it, and a load answer carrying its hint key gets a
// restore prompt admitted with that key (or refused, logged by the row's label). Nothing names a kind.
import { RestoreKinds } from "@qwen-daemon/core/protocol";
import { describe, expect, it } from "vitest";
import type { LiveSession } from "./live-session.js";
import { suppressMetaIn } from "./restore-admission.js";
import { admitRestorePromptIn } from "./restore-prompt.js";

const TABLE = {
  ...RestoreKinds,
  deploy: {
    hintMetaKey: "qwen.daemon.restoreDeploy",
    suppressMetaKey: "qwen.daemon.suppressRestoreDeploy",
    suppressWithSwitchOff: false,
    label: "deploys",
  },
};
type Kind = keyof typeof TABLE;
const ALL_ON: Record<Kind, boolean> = { question: true, approvals: true, deploy: true };
const NONE: Record<Kind, boolean> = { question: false, approvals: false, deploy: false };

function fakeSession(promptActive = false) {
  const admitted: { promptId: string; kind: string; meta?: unknown }[] = [];
  const session = {
    sessionId: "s1",
    activity: { promptActive, pendingPromptCount: 0 },
    queue: { admit: (p: (typeof admitted)[number]) => void admitted.push(p) },
  } as unknown as LiveSession;
  return { session, admitted };
}

function admit(responseMeta: Record<string, unknown>, switches = ALL_ON, promptActive = false) {
  const { session, admitted } = fakeSession(promptActive);
  const log: string[] = [];
  const promptId = admitRestorePromptIn(TABLE, {
    session,
    responseMeta,
    switches,
    requestedClientId: "c1",
    clientId: "client-1",
    newId: () => "p1",
    log: (line) => log.push(line),
  });
  return { promptId, admitted, log };
}

describe("a restore kind added as a row, on the daemon's side", () => {
  it("sends its suppress key on a load it will refuse, with its switch on only", () => {
    expect(suppressMetaIn(TABLE, ALL_ON, { ...NONE, deploy: true })).toEqual({
      "qwen.daemon.suppressRestoreDeploy": true,
    });
    // Off, it is news to the agent, unlike the reference's question key.
    expect(suppressMetaIn(TABLE, NONE, { question: true, approvals: true, deploy: true })).toEqual({
      [RestoreKinds.question.suppressMetaKey]: true,
    });
  });

  it("admits the restore prompt its hint asks for, with that hint key", () => {
    const { promptId, admitted } = admit({ "qwen.daemon.restoreDeploy": true });
    expect(promptId).toBe("p1");
    expect(admitted).toHaveLength(1);
    expect(admitted[0]).toMatchObject({ kind: "restore", meta: { "qwen.daemon.restoreDeploy": true } });
  });

  it("refuses it with its switch off or the session busy, logged under its label", () => {
    const off = admit({ "qwen.daemon.restoreDeploy": true }, { ...ALL_ON, deploy: false });
    expect(off.promptId).toBeUndefined();
    expect(off.admitted).toEqual([]);
    expect(off.log).toEqual(["qwen serve: restore of deploys refused for s1 (switch_off)"]);
    expect(admit({ "qwen.daemon.restoreDeploy": true }, ALL_ON, true).log).toEqual([
      "qwen serve: restore of deploys refused for s1 (busy)",
    ]);
  });
});
