// `--restore-pending-approvals`, daemon side (docs/restore.md "How a restore runs", step 4 for approvals) through the HTTP routes,
// against a scripted ACP peer: admission under its own switch, its own suppress key, and the answer journal
// answering a re-asked approval that was acknowledged before the restart.
import { describe, expect, it } from "vitest";
import { memoryAnswerJournal } from "../answers/answer-journal.js";
import { loadS1, restoringAgent as restoringAgentOf, userSaid } from "../testing/restoring-agent.js";
import { createTestDaemon, waitFor } from "../testing/test-daemon.js";

const HINT_KEY = "qwen.daemon.restorePendingApprovals";
const SUPPRESS_APPROVALS = "qwen.daemon.suppressRestorePendingApprovals";
const SUPPRESS_QUESTION = "qwen.daemon.suppressRestoreAskUserQuestion";

const approvalRequest = (sessionId: string) => ({
  sessionId,
  toolCall: {
    toolCallId: "call-run",
    title: "echo x >> counter",
    kind: "execute",
    rawInput: { command: "echo x >> counter" },
    _meta: { toolName: "run_shell_command" },
  },
  options: [
    { optionId: "allow_once", name: "Allow", kind: "allow_once" },
    { optionId: "reject_once", name: "Reject", kind: "reject_once" },
  ],
});

/** A child that asks the trailing approval again when it gets the approvals restore prompt. */
const restoringAgent = (answers: Array<Record<string, unknown>>) =>
  restoringAgentOf(HINT_KEY, userSaid("run it"), approvalRequest, answers);

/** A load by the client of before the restart. */
const load = (d: ReturnType<typeof createTestDaemon>) => loadS1(d, "client_before");

describe("approvals restore admission", () => {
  it("admits the approvals hint under its own switch, with the approvals key on the restore prompt", async () => {
    const answers: Array<Record<string, unknown>> = [];
    const d = createTestDaemon({ restorePendingApprovals: true, agent: restoringAgent(answers) });
    const res = await load(d);
    expect(res.status).toBe(200);
    expect((await res.json()).hasActivePrompt).toBe(true);
    // The question switch is off: its suppress key goes out, the approvals one does not.
    expect(d.agent.callsOf("session/load")[0]?.params._meta).toEqual({ [SUPPRESS_QUESTION]: true });
    await waitFor(() => d.sessions.mediator.hasPending("s1"), "re-asked approval");
    const meta = d.agent.callsOf("session/prompt")[0]?.params._meta as Record<string, unknown>;
    expect(meta["qwen.daemon.restorePendingApprovals"]).toBe(true);
    expect(meta).not.toHaveProperty("qwen.daemon.restoreAskUserQuestion");
    const status = await (await d.request("GET", "/session/s1/status")).json();
    expect(status).toMatchObject({ isWaitingForPermission: true, isWaitingForUserQuestion: false });
  });

  it("refuses it with the switch off (the question switch does not admit it), and never sends its key", async () => {
    const answers: Array<Record<string, unknown>> = [];
    const d = createTestDaemon({ restoreAskUserQuestion: true, agent: restoringAgent(answers) });
    expect((await load(d)).status).toBe(200);
    expect(d.agent.callsOf("session/load")[0]?.params._meta ?? {}).not.toHaveProperty(SUPPRESS_APPROVALS);
    expect(d.agent.callsOf("session/prompt")).toHaveLength(0);
    expect(d.logs.some((l) => l.includes("pending approvals refused") && l.includes("switch_off"))).toBe(
      true,
    );
  });

  it("sends the approvals suppress key when it already knows it will refuse (no client id)", async () => {
    const d = createTestDaemon({ restorePendingApprovals: true, agent: restoringAgent([]) });
    expect((await loadS1(d)).status).toBe(200);
    expect(d.agent.callsOf("session/load")[0]?.params._meta).toMatchObject({ [SUPPRESS_APPROVALS]: true });
    expect(d.agent.callsOf("session/prompt")).toHaveLength(0);
  });
});

describe("approvals in the answer journal", () => {
  it("an approval acknowledged with 200 answers the same approval asked again after a restart", async () => {
    const journal = memoryAnswerJournal();
    const first: Array<Record<string, unknown>> = [];
    const d = createTestDaemon({
      restorePendingApprovals: true,
      agent: restoringAgent(first),
      answerJournal: journal,
    });
    const loaded = await (await load(d)).json();
    await waitFor(() => d.sessions.mediator.hasPending("s1"), "re-asked approval");
    const [pending] = d.sessions.mediator.pending("s1");
    const vote = await d.request("POST", `/session/s1/permission/${pending?.requestId}`, {
      body: { outcome: { outcome: "selected", optionId: "allow_once" } },
      headers: { "X-Qwen-Client-Id": loaded.clientId },
    });
    expect(vote.status).toBe(200);
    await waitFor(() => first.length === 1, "the child got the answer");

    // A second daemon over the same files (the journal), as after a crash that came before the tool's result.
    const again: Array<Record<string, unknown>> = [];
    const d2 = createTestDaemon({
      restorePendingApprovals: true,
      agent: restoringAgent(again),
      answerJournal: journal,
    });
    expect((await load(d2)).status).toBe(200);
    await waitFor(() => again.length === 1, "the re-asked approval answered from the journal");
    expect(again[0]).toMatchObject({ outcome: { outcome: "selected", optionId: "allow_once" } });
    expect(d2.logs.some((l) => l.includes("answered from the answer journal"))).toBe(true);
  });
});
