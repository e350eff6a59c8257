// AgentSession.load with answers the host already holds (an acknowledged vote journaled before a crash): a
// batch that will not be re-asked is closed with them, so the answer reaches the model whatever the batch held.
// The crash is simulated as in agent-session.test.ts: the session's files are copied at the instant the
// question is asked (what a SIGKILL would leave).
import { afterEach, describe, expect, it } from "vitest";
import { Config } from "../config.js";
import { ORPHAN_TOOL_RESULT_TEXT } from "../history/orphan-repair.js";
import { jsonlSessionStorage } from "../storage/jsonl/jsonl-storage.js";
import { transcriptPath } from "../storage/jsonl/paths.js";
import {
  DEFAULT_QUESTION,
  type FakeOpenAIServer,
  reply,
  startFakeOpenAIServer,
  trailingToolMessages,
} from "../testing/index.js";
import { createAskUserQuestionTool } from "../tools/ask-user-question.js";
import { ToolRegistry } from "../tools/registry.js";
import { PromptLedger } from "../transcript/ledger.js";
import { readTranscript } from "../transcript/reader.js";
import { AgentSession, type AgentSessionLoadOptions } from "./agent-session.js";
import type { GivenAnswer } from "./answered-batch.js";
import {
  COLOR_ANSWER_TEXT,
  crashCopyOnAsk,
  crashedHomeOf,
  providerFor,
  recordingTool,
  suppressed,
  type TempWorkspace,
  tempWorkspace,
} from "./test-support.js";

const SESSION = "session-1";
const QUESTION = { name: "ask_user_question", args: { questions: [DEFAULT_QUESTION] } };
const MIXED = reply.toolCalls([
  { name: "list_directory", args: {}, id: "call_list" },
  { ...QUESTION, id: "call_q" },
]);
const BATCH = reply.toolCalls([
  { ...QUESTION, id: "call_q" },
  { ...QUESTION, id: "call_q2" },
]);
const BLUE: GivenAnswer = { outcome: "approved", answers: { "0": "Blue" } };

let server: FakeOpenAIServer | undefined;
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
  server = undefined;
});

type Where = { qwenHome: string; cwd: string };

function options(where: Where, s: FakeOpenAIServer, extra: Partial<AgentSessionLoadOptions> = {}) {
  return {
    sessionId: SESSION,
    cwd: where.cwd,
    storage: jsonlSessionStorage(where.qwenHome),
    provider: providerFor(s),
    config: new Config({ restoreAskUserQuestion: true }),
    tools: new ToolRegistry([createAskUserQuestionTool(), recordingTool("list_directory", "none")]),
    onEvent: () => {},
    confirm: async () => ({ outcome: "rejected" as const }),
    ...extra,
  };
}

async function open(session: Promise<AgentSession>): Promise<AgentSession> {
  const s = await session;
  cleanup.push(() => s.close());
  return s;
}

/** Prompt p1 runs until its (first) question is asked; the files at that instant are the crashed copy. */
async function crashWhileAsking(batch: typeof MIXED): Promise<Where> {
  const ws: TempWorkspace = await tempWorkspace();
  cleanup.push(() => ws.remove());
  const model = await startFakeOpenAIServer([batch, reply.text("Noted.")]);
  cleanup.push(() => model.close());
  server = model;
  const crashed = crashedHomeOf(ws);
  const original = await open(
    AgentSession.create(
      options(ws, server, {
        confirm: crashCopyOnAsk(ws, crashed),
      }),
    ),
  );
  await original.prompt([{ text: "look and ask" }], { promptId: "p1", signal: new AbortController().signal });
  return crashed;
}

const records = async (where: Where) =>
  (await readTranscript(transcriptPath(where.qwenHome, where.cwd, SESSION))).records;
const ledger = (where: Where) =>
  PromptLedger.forSession({
    storage: jsonlSessionStorage(where.qwenHome),
    cwd: where.cwd,
    sessionId: SESSION,
  }).read();
const nextPrompt = (session: AgentSession) =>
  session.prompt([{ text: "carry on" }], { promptId: "p2", signal: new AbortController().signal });
/** The tool results the model received with the prompt after the load, by call id. */
const toolResultsSent = () =>
  Object.fromEntries(
    (server?.requests.at(-1)?.messages ?? []).flatMap((m) =>
      m.role === "tool" ? [[m.tool_call_id, m.content]] : [],
    ),
  );

describe("AgentSession.load with given answers", () => {
  it("closes a mixed batch with the answer and the orphan text for the other call, on disk", async () => {
    const crashed = await crashWhileAsking(MIXED);
    const session = await open(
      AgentSession.load(options(crashed, server!, { givenAnswers: new Map([["call_q", BLUE]]) })),
    );
    const tail = (await records(crashed)).slice(-2);
    expect(
      tail.map((r) => [r.type, "message" in r ? r.message.parts[0]?.functionResponse : undefined]),
    ).toEqual([
      [
        "tool_result",
        { id: "call_list", name: "list_directory", response: { error: ORPHAN_TOOL_RESULT_TEXT } },
      ],
      ["tool_result", { id: "call_q", name: "ask_user_question", response: { output: COLOR_ANSWER_TEXT } }],
    ]);
    expect(session.records().slice(-2)).toEqual(tail);
    // Nothing waits to be re-asked: the batch is answered and the model never saw it, so a restore prompt can
    // let the turn go on and take the crashed prompt over (it stays open for it).
    expect(session.restorableQuestion()).toBeUndefined();
    expect(session.answeredTail()).toBe("question");
    expect((await ledger(crashed)).map((e) => [e.promptId, e.state, e.code])).toEqual([
      ["p1", "in_flight", undefined],
    ]);
    // A plain prompt first closes it as lost, and carries the answers.
    await nextPrompt(session);
    expect((await ledger(crashed)).slice(0, 2).map((e) => [e.promptId, e.state, e.code])).toEqual([
      ["p1", "in_flight", undefined],
      ["p1", "interrupted", "daemon_lost"],
    ]);
    expect(toolResultsSent()).toEqual({ call_list: ORPHAN_TOOL_RESULT_TEXT, call_q: COLOR_ANSWER_TEXT });
    expect(trailingToolMessages(server!.requests.at(-1)!)).toEqual([]);
  });

  it("a later load finds the batch answered: the answer is on disk, not in the host's memory", async () => {
    const crashed = await crashWhileAsking(MIXED);
    const first = await open(
      AgentSession.load(options(crashed, server!, { givenAnswers: new Map([["call_q", BLUE]]) })),
    );
    await first.close();
    const again = await open(AgentSession.load(options(crashed, server!)));
    await nextPrompt(again);
    expect(toolResultsSent()).toEqual({ call_list: ORPHAN_TOOL_RESULT_TEXT, call_q: COLOR_ANSWER_TEXT });
  });

  it("a restorable batch loaded without a restore (suppressed) is closed with its answers when all are given", async () => {
    const crashed = await crashWhileAsking(BATCH);
    const both = new Map([
      ["call_q", BLUE],
      ["call_q2", { outcome: "rejected" } as GivenAnswer],
    ]);
    const session = await open(
      AgentSession.load(suppressed(options(crashed, server!, { givenAnswers: both }))),
    );
    await nextPrompt(session);
    expect(toolResultsSent()).toEqual({
      call_q: COLOR_ANSWER_TEXT,
      call_q2: 'Tool "ask_user_question" was canceled by the user.',
    });
  });

  it("leaves a restorable batch dangling on disk when one of its questions has no answer yet", async () => {
    const crashed = await crashWhileAsking(BATCH);
    const before = (await records(crashed)).length;
    const session = await open(
      AgentSession.load(suppressed(options(crashed, server!, { givenAnswers: new Map([["call_q", BLUE]]) }))),
    );
    await session.close();
    expect(await records(crashed)).toHaveLength(before);
    const restoring = await open(AgentSession.load(options(crashed, server!)));
    expect(restoring.restorableQuestion()?.functionCalls.map((c) => c.id)).toEqual(["call_q", "call_q2"]);
  });

  it("a plain prompt after such a load closes the batch with the answers given, on disk and for the model", async () => {
    const crashed = await crashWhileAsking(BATCH);
    const session = await open(
      AgentSession.load(suppressed(options(crashed, server!, { givenAnswers: new Map([["call_q", BLUE]]) }))),
    );
    await nextPrompt(session);
    expect(toolResultsSent()).toEqual({ call_q: COLOR_ANSWER_TEXT, call_q2: ORPHAN_TOOL_RESULT_TEXT });
    await session.close();
    const again = await open(AgentSession.load(options(crashed, server!)));
    expect(again.restorableQuestion()).toBeUndefined();
    await again.prompt([{ text: "and now?" }], { promptId: "p3", signal: new AbortController().signal });
    expect(toolResultsSent()).toEqual({ call_q: COLOR_ANSWER_TEXT, call_q2: ORPHAN_TOOL_RESULT_TEXT });
  });

  it("never touches a batch the load keeps for a restore, and does nothing with the switch off", async () => {
    const restorable = await crashWhileAsking(BATCH);
    const before = (await records(restorable)).length;
    const kept = await open(
      AgentSession.load(options(restorable, server!, { givenAnswers: new Map([["call_q", BLUE]]) })),
    );
    expect(kept.restorableQuestion()?.functionCalls).toHaveLength(2);
    await kept.close();
    expect(await records(restorable)).toHaveLength(before);

    const mixed = await crashWhileAsking(MIXED);
    const count = (await records(mixed)).length;
    const off = await open(
      AgentSession.load(
        options(mixed, server!, {
          config: new Config({ restoreAskUserQuestion: false }),
          givenAnswers: new Map([["call_q", BLUE]]),
        }),
      ),
    );
    await off.close();
    expect(await records(mixed)).toHaveLength(count);
  });
});
