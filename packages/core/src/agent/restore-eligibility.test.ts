// The generic restore machinery of a session, walked with a synthetic third kind ("deploy": a trailing batch of
// `deploy` calls) added to the eligibility table: it is found under its own switch, left open at load unless
// suppressed, and asked again by the turn that every restore runs, with nothing else written for it.
import { afterEach, describe, expect, it } from "vitest";
import type { Content, FunctionCall } from "../content.js";
import { RESTORE_KIND_NAMES } from "../protocol/restore-kinds.js";
import { DEFAULT_QUESTION, reply } from "../testing/index.js";
import { Chat } from "./chat.js";
import {
  preservedAtLoad,
  RESTORE_ELIGIBILITY,
  type RestoreEligibilityTable,
  type RestoreScan,
  restorableCalls,
  restorableKind,
} from "./restore-eligibility.js";
import { recordingTool } from "./test-support.js";
import { runTurn } from "./turn-loop.js";
import { closeTurnFixtures, setup } from "./turn-loop-fixtures.js";

afterEach(closeTurnFixtures);

type Kind = "question" | "approvals" | "deploy";

/** The contract's kinds plus the synthetic one: its eligibility function is all a new kind adds here. */
const TABLE: RestoreEligibilityTable<Kind> = {
  ...RESTORE_ELIGIBILITY,
  deploy: ({ history }) => {
    const last = history.at(-1);
    if (last?.role !== "model") return undefined;
    const calls = last.parts.flatMap((p) => (p.functionCall ? [p.functionCall] : []));
    return calls.length > 0 && calls.every((c) => c.name === "deploy") ? calls : undefined;
  },
};

const deployCall: FunctionCall = { id: "d1", name: "deploy", args: {} };
const deployBatch: Content[] = [
  { role: "user", parts: [{ text: "ship it" }] },
  { role: "model", parts: [{ functionCall: deployCall }] },
];
const questionBatch: Content[] = [
  { role: "user", parts: [{ text: "ask me" }] },
  {
    role: "model",
    parts: [
      { functionCall: { id: "q1", name: "ask_user_question", args: { questions: [DEFAULT_QUESTION] } } },
    ],
  },
];

function scan(history: Content[], switches: Partial<Record<Kind, boolean>> = {}): RestoreScan<Kind> {
  return {
    history,
    records: [],
    switches: { question: true, approvals: true, deploy: true, ...switches },
  };
}

describe("the restore eligibility table", () => {
  it("has one function per row of the contract's table, in its order", () => {
    expect(Object.keys(RESTORE_ELIGIBILITY)).toEqual(RESTORE_KIND_NAMES);
  });

  it("finds a trailing batch as the one kind whose rule admits it, only under that kind's switch", () => {
    expect(restorableKind(TABLE, scan(deployBatch))).toEqual({ kind: "deploy", calls: [deployCall] });
    expect(restorableKind(TABLE, scan(deployBatch, { deploy: false }))).toBeUndefined();
    expect(restorableCalls(TABLE, "question", scan(deployBatch))).toBeUndefined();
    // The contract's kinds are unchanged beside it.
    expect(restorableKind(TABLE, scan(questionBatch))?.kind).toBe("question");
    expect(restorableKind(TABLE, scan(questionBatch, { question: false }))).toBeUndefined();
  });

  it("leaves the kind's calls open at load, unless the host suppressed that kind", () => {
    const kept = preservedAtLoad(TABLE, scan(deployBatch), () => true);
    expect(kept.preserveCallIds).toEqual(new Set(["d1"]));
    const suppressed = preservedAtLoad(TABLE, scan(deployBatch), (kind) => kind !== "deploy");
    expect(suppressed.found?.kind).toBe("deploy");
    expect(suppressed.preserveCallIds).toBeUndefined();
    // Suppressing another kind does not touch it.
    expect(preservedAtLoad(TABLE, scan(deployBatch), (k) => k !== "question").preserveCallIds).toEqual(
      new Set(["d1"]),
    );
  });

  it("asks the kind's calls again in the restore's turn: confirmed, run, and the same turn goes on", async () => {
    const deploy = recordingTool("deploy", "exec");
    const { deps, confirm, log } = await setup([reply.text("Deployed.")], { tools: [deploy] });
    const { found, preserveCallIds } = preservedAtLoad(TABLE, scan(deployBatch), () => true);
    deps.chat = Chat.start(deployBatch, preserveCallIds ? { preserveCallIds } : {});
    expect(found?.kind).toBe("deploy");
    const outcome = await runTurn(deps, { kind: "pending_calls", calls: found?.calls ?? [] });
    expect(outcome.stopReason).toBe("end_turn");
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(deploy.calls).toHaveLength(1);
    expect(log.map((l) => l.type)).toEqual(["tool_result", "assistant", "turn_result"]);
  });

  it("suppressed, the load repairs the kind's calls like any dangling call: nothing is left to ask", async () => {
    const { preserveCallIds } = preservedAtLoad(TABLE, scan(deployBatch), (kind) => kind !== "deploy");
    const chat = Chat.start(deployBatch, preserveCallIds ? { preserveCallIds } : {});
    expect(chat.peekLastHistoryEntry()?.role).toBe("user");
    expect(restorableKind(TABLE, scan([...chat.getHistory()]))).toBeUndefined();
  });
});
