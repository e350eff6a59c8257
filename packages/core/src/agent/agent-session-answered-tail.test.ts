// AgentSession after a crash that landed between a question's answer and the model's next request: the
// transcript holds the answer as the question's result, the model never saw it. The files are copied when that
// request arrives at the fake model (what a SIGKILL at that instant leaves), and loaded from the copy.
import { cp } from "node:fs/promises";
import { afterEach, describe, expect, it, vi } from "vitest";
import { chatsDir } from "../storage/jsonl/paths.js";
import { type FakeOpenAIServer, lastMessage, reply, startFakeOpenAIServer } from "../testing/index.js";
import { AgentSession } from "./agent-session.js";
import {
  answered,
  closeFixtures,
  ledgerOf,
  options,
  prompt,
  QUESTION_ID,
  questionReply,
  readRecords,
  text,
  track,
  workspace,
} from "./agent-session-fixtures.js";
import { COLOR_ANSWER_TEXT, crashedHomeOf, suppressed } from "./test-support.js";

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await closeFixtures(server);
  server = undefined;
});

/** Asks, answers Blue, and copies the files the instant the answer's request reaches the model. */
async function crashAfterAnswerWritten() {
  const ws = await workspace();
  const crashed = crashedHomeOf(ws);
  const s = await startFakeOpenAIServer(async (request) => {
    if (lastMessage(request)?.role !== "tool") return questionReply();
    if (!copied) {
      copied = true;
      await cp(chatsDir(ws.qwenHome, ws.cwd), chatsDir(crashed.qwenHome, crashed.cwd), { recursive: true });
    }
    return reply.text("Blue it is.");
  });
  let copied = false;
  server = s;
  const original = await track(
    AgentSession.create(options(ws, s, { restore: true, confirm: answered({ "0": "Blue" }) })),
  );
  await original.prompt(text("pick a color"), prompt("p1"));
  await original.close();
  return { server: s, crashed, requestsAtCrash: 2 };
}

/** Requests whose newest message is the question's answer: each one is the model being told the answer. */
const answerDeliveries = (s: FakeOpenAIServer) =>
  s.requests.filter((r) => {
    const last = lastMessage(r);
    return last?.role === "tool" && last.tool_call_id === QUESTION_ID;
  });

describe("AgentSession: an answered question the model never saw", () => {
  it("with the switch on: the load keeps the prompt open and the restore continues the same turn", async () => {
    const { server: s, crashed } = await crashAfterAnswerWritten();
    const confirm = vi.fn(answered({ "0": "Red" }));
    const session = await track(AgentSession.load(options(crashed, s, { restore: true, confirm })));
    const loaded = session.records().length;
    expect(session.restorableQuestion()).toBeUndefined();
    expect(session.answeredTail()).toBe("question");
    expect(await session.openPrompts()).toEqual(["p1"]);

    expect(await session.restoreQuestion(prompt("p2"))).toEqual({ stopReason: "end_turn" });
    // Nobody asked again; the model got the answer as the newest message, once more than the crashed request.
    expect(confirm).not.toHaveBeenCalled();
    const deliveries = answerDeliveries(s);
    expect(deliveries).toHaveLength(2);
    expect(lastMessage(deliveries[1]!)?.content).toBe(COLOR_ANSWER_TEXT);
    // The same turn: no user record, the model's reply, then the end of the turn.
    const after = (await readRecords(crashed)).slice(loaded);
    expect(after.map((r) => r.type)).toEqual(["assistant", "system"]);
    expect(await ledgerOf(crashed)).toMatchObject([
      { promptId: "p1", state: "in_flight" },
      { promptId: "p2", state: "in_flight" },
      { promptId: "p1", state: "interrupted", code: "restored", restoredBy: "p2" },
      { promptId: "p2", state: "completed", stopReason: "end_turn" },
    ]);
    expect(session.answeredTail()).toBeUndefined();
    // Asked to restore again (a forged or repeated restore), it does nothing.
    const before = s.requests.length;
    expect(await session.restoreQuestion(prompt("p3"))).toEqual({ stopReason: "end_turn" });
    expect(s.requests.length).toBe(before);
  });

  it("the approvals restore does not take a question's tail", async () => {
    const { server: s, crashed } = await crashAfterAnswerWritten();
    const session = await track(AgentSession.load(options(crashed, s, { restore: true })));
    const before = s.requests.length;
    expect(await session.restorePendingApprovals(prompt("p2"))).toEqual({ stopReason: "end_turn" });
    expect(s.requests.length).toBe(before);
  });

  it("nobody there (preservation suppressed): the prompt is closed as lost and the answer waits for the next prompt", async () => {
    const { server: s, crashed } = await crashAfterAnswerWritten();
    const session = await track(AgentSession.load(suppressed(options(crashed, s, { restore: true }))));
    expect(await session.openPrompts()).toEqual([]);
    expect(await ledgerOf(crashed)).toMatchObject([
      { promptId: "p1", state: "in_flight" },
      { promptId: "p1", state: "interrupted", code: "daemon_lost" },
    ]);
    await session.prompt(text("and now?"), prompt("p2"));
    const last = s.requests.at(-1)!;
    expect(last.messages.filter((m) => m.role === "tool").map((m) => m.content)).toEqual([COLOR_ANSWER_TEXT]);
    expect(answerDeliveries(s)).toHaveLength(1);
  });

  it("with the switch off: nothing is continued, the prompt is closed as lost", async () => {
    const { server: s, crashed } = await crashAfterAnswerWritten();
    const session = await track(AgentSession.load(options(crashed, s)));
    expect(session.answeredTail()).toBeUndefined();
    expect(await session.openPrompts()).toEqual([]);
    const before = s.requests.length;
    expect(await session.restoreQuestion(prompt("p2"))).toEqual({ stopReason: "end_turn" });
    expect(s.requests.length).toBe(before);
  });
});
