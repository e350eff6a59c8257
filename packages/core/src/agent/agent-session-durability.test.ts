// Which of a session's writes are durable, observed through the storage's sync probe: the records a user may
// have seen (the user message, the model's reply holding a question's functionCall, tool results) and every
// ledger entry are fsynced before the write resolves; turn_result bookkeeping is not.
import { afterEach, describe, expect, it } from "vitest";
import { Config } from "../config.js";
import { jsonlSessionStorage } from "../storage/jsonl/jsonl-storage.js";
import { ledgerPath, transcriptPath } from "../storage/jsonl/paths.js";
import { type FakeOpenAIServer, reply, startFakeOpenAIServer } from "../testing/index.js";
import { createAskUserQuestionTool } from "../tools/ask-user-question.js";
import { ToolRegistry } from "../tools/registry.js";
import { readTranscript } from "../transcript/reader.js";
import { AgentSession } from "./agent-session.js";
import { prompt, QUESTION_ID, questionReply, SESSION, text } from "./agent-session-fixtures.js";
import type { ConfirmationHandler } from "./contract.js";
import { providerFor, type TempWorkspace, tempWorkspace } from "./test-support.js";

let server: FakeOpenAIServer | undefined;
let ws: TempWorkspace | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await ws?.remove();
  ws = undefined;
});

/** A session whose storage counts the fsyncs made per file. */
async function probedSession(confirm: ConfirmationHandler) {
  ws = await tempWorkspace();
  const synced = new Map<string, number>();
  const storage = jsonlSessionStorage(ws.qwenHome, {
    onSync: (path) => synced.set(path, (synced.get(path) ?? 0) + 1),
  });
  const transcript = transcriptPath(ws.qwenHome, ws.cwd, SESSION);
  const ledger = ledgerPath(ws.qwenHome, ws.cwd, SESSION);
  const session = await AgentSession.create({
    sessionId: SESSION,
    cwd: ws.cwd,
    storage,
    provider: providerFor(server!),
    config: new Config({ restoreAskUserQuestion: true }),
    tools: new ToolRegistry([createAskUserQuestionTool()]),
    onEvent: () => {},
    confirm,
  });
  return {
    session,
    transcript,
    syncs: () => ({ transcript: synced.get(transcript) ?? 0, ledger: synced.get(ledger) ?? 0 }),
  };
}

describe("AgentSession durability", () => {
  it("has the question's functionCall fsynced before the question is shown", async () => {
    server = await startFakeOpenAIServer([questionReply(), reply.text("Blue it is.")]);
    let atAsk: { transcript: number; ledger: number } | undefined;
    let lastOnDisk: unknown;
    const probed = await probedSession(async () => {
      atAsk = probed.syncs();
      lastOnDisk = (await readTranscript(probed.transcript)).records.at(-1);
      return { outcome: "approved", answers: { "0": "Blue" } };
    });
    expect(probed.syncs()).toEqual({ transcript: 1, ledger: 0 }); // session_created
    await probed.session.prompt(text("pick a color"), prompt("p1"));
    // session_created, the user message and the model's reply with the call: three fsyncs; in_flight: one.
    expect(atAsk).toEqual({ transcript: 3, ledger: 1 });
    expect(lastOnDisk).toMatchObject({
      type: "assistant",
      message: { parts: [{ text: "Let me ask." }, { functionCall: { id: QUESTION_ID } }] },
    });
    const records = probed.session.records();
    expect(records.map((r) => r.type)).toEqual([
      "system",
      "user",
      "assistant",
      "tool_result",
      "assistant",
      "system",
    ]);
    // Everything but the closing turn_result is durable, and both ledger entries are.
    expect(probed.syncs()).toEqual({ transcript: records.length - 1, ledger: 2 });
    await probed.session.close();
  });
});
