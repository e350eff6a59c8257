// The agent's restore decisions walked with a synthetic third row beside the contract's table: the load answer
// hints it, a request's suppress key stops that hint (and only it), and a restore prompt carrying its hint key
// is run as that kind's restore. Nothing here names a kind: the rows are all there is.
import { RestoreKinds } from "@qwen-daemon/core/protocol";
import { describe, expect, it } from "vitest";
import { restoreHintMetaIn, restorePromptKindIn, suppressIn } from "./restore.js";

const TABLE = {
  ...RestoreKinds,
  deploy: { hintMetaKey: "qwen.daemon.restoreDeploy", suppressMetaKey: "qwen.daemon.suppressRestoreDeploy" },
};
type Kind = keyof typeof TABLE;
const ALL_ON: Record<Kind, boolean> = { question: true, approvals: true, deploy: true };

function hint(meta: Record<string, unknown> | undefined, switches = ALL_ON) {
  return restoreHintMetaIn(TABLE, {
    switches,
    suppress: suppressIn(TABLE, meta),
    promptActive: false,
    restorable: (kind) => kind === "deploy",
  });
}

describe("a restore kind added as a row", () => {
  it("is hinted by a load answer under its own switch", () => {
    expect(hint(undefined)).toEqual({ "qwen.daemon.restoreDeploy": true });
    expect(hint(undefined, { ...ALL_ON, deploy: false })).toBeUndefined();
  });

  it("is suppressed by its own key, and by no other kind's", () => {
    expect(suppressIn(TABLE, { "qwen.daemon.suppressRestoreDeploy": true })).toEqual({
      question: false,
      approvals: false,
      deploy: true,
    });
    expect(hint({ "qwen.daemon.suppressRestoreDeploy": true })).toBeUndefined();
    expect(hint({ [RestoreKinds.question.suppressMetaKey]: true })).toEqual({
      "qwen.daemon.restoreDeploy": true,
    });
  });

  it("runs a prompt with its hint key as its restore, only with its switch on", () => {
    const meta = { "qwen.daemon.restoreDeploy": true };
    expect(restorePromptKindIn(TABLE, ALL_ON, meta)).toBe("deploy");
    expect(restorePromptKindIn(TABLE, { ...ALL_ON, deploy: false }, meta)).toBeUndefined();
    expect(restorePromptKindIn(TABLE, ALL_ON, { [RestoreKinds.approvals.hintMetaKey]: true })).toBe(
      "approvals",
    );
  });
});
