// Issue 10 item 10 through the routes: a 202 prompt is in the prompt journal before the 202, closed once the
// agent answered it, and a load from disk reports the prompts the agent never started (with their text).
import type { LedgerEntry } from "@qwen-daemon/core";
import { describe, expect, it } from "vitest";
import { memoryPromptJournal, type PromptJournal } from "../prompts/prompt-journal.js";
import type { PromptJournalEntry } from "../prompts/prompt-record.js";
import type { AgentPeer } from "../testing/scripted-agent.js";
import { StoredSessions } from "../testing/stored-sessions.js";
import { createTestDaemon, TEST_WORKSPACE, waitFor } from "../testing/test-daemon.js";

const text = (t: string) => ({ prompt: [{ type: "text", text: t }] });
const accepted = (promptId: string, t: string): PromptJournalEntry => ({
  v: 1,
  type: "accepted",
  sessionId: "s1",
  promptId,
  text: t,
  queuedAt: "2025-01-01T00:00:01.000Z",
});

describe("a prompt is journaled before its 202", () => {
  it("the accepted line is on record when the 202 arrives; the agent's answer settles it", async () => {
    const journal = memoryPromptJournal();
    let release!: () => void;
    const d = createTestDaemon({
      promptJournal: journal,
      agent: {
        prompt: (_p: unknown, _peer: AgentPeer) =>
          new Promise((resolve) => {
            release = () => resolve({ stopReason: "end_turn" });
          }),
      },
    });
    const { sessionId, clientId } = await d.createSession();
    const res = await d.request("POST", `/session/${sessionId}/prompt`, {
      body: text("first\nprompt"),
      headers: { "X-Qwen-Client-Id": clientId },
    });
    expect(res.status).toBe(202);
    const { promptId } = await res.json();
    expect(journal.entries).toEqual([
      {
        v: 1,
        type: "accepted",
        sessionId,
        promptId,
        text: "first\nprompt",
        queuedAt: expect.any(String),
        originatorClientId: clientId,
      },
    ]);
    await waitFor(() => release !== undefined, "the prompt reaching the agent");
    release();
    await waitFor(() => journal.entries.some((e) => e.type === "settled"), "settled line");
    expect(journal.entries.map((e) => [e.type, e.promptId])).toEqual([
      ["accepted", promptId],
      ["settled", promptId],
    ]);
  });

  it("a journal that cannot be written is a 500 and nothing is queued or sent", async () => {
    const failing: PromptJournal = {
      ...memoryPromptJournal(),
      append: async () => {
        throw Object.assign(new Error("disk full"), { code: "ENOSPC" });
      },
    };
    const d = createTestDaemon({ promptJournal: failing });
    const { sessionId, clientId } = await d.createSession();
    const res = await d.request("POST", `/session/${sessionId}/prompt`, {
      body: text("hello"),
      headers: { "X-Qwen-Client-Id": clientId },
    });
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ code: "prompt_journal_failed", sessionId });
    const pending = await d.request("GET", `/session/${sessionId}/pending-prompts`);
    expect((await pending.json()).pendingPrompts).toEqual([]);
    expect(d.agent.callsOf("session/prompt")).toEqual([]);
    expect(d.logs.some((l) => l.includes("ENOSPC") || l.includes("disk full"))).toBe(true);
  });

  it("a full queue is refused before anything is written", async () => {
    const journal = memoryPromptJournal();
    const d = createTestDaemon({
      promptJournal: journal,
      maxPendingPromptsPerSession: 1,
      agent: { prompt: () => new Promise(() => {}) },
    });
    const { sessionId, clientId } = await d.createSession();
    const headers = { "X-Qwen-Client-Id": clientId };
    expect(
      (await d.request("POST", `/session/${sessionId}/prompt`, { body: text("a"), headers })).status,
    ).toBe(202);
    expect(
      (await d.request("POST", `/session/${sessionId}/prompt`, { body: text("b"), headers })).status,
    ).toBe(503);
    expect(journal.entries.map((e) => e.type)).toEqual(["accepted"]);
  });
});

describe("a load from disk reports the prompts the agent never started", () => {
  async function restarted(ledger: LedgerEntry[]) {
    const journal = memoryPromptJournal();
    const d = createTestDaemon({
      promptJournal: journal,
      storage: (await new StoredSessions().ledger(TEST_WORKSPACE, "s1", ledger)).storage,
      agent: { persisted: { s1: [] } },
    });
    return { d, journal };
  }

  it("as interrupted / never_started terminals with their text; the started one is settled by the ledger", async () => {
    const ledger: LedgerEntry[] = [
      { promptId: "p1", state: "in_flight", timestamp: "2025-01-01T00:00:02.000Z" },
      { promptId: "p1", state: "interrupted", code: "daemon_lost", timestamp: "2025-01-01T00:00:05.000Z" },
    ];
    const { d, journal } = await restarted(ledger);
    for (const e of [accepted("p1", "running"), accepted("p2", "queued one"), accepted("p3", "queued two")])
      await journal.append(TEST_WORKSPACE, e);
    for (const action of ["load", "resume"]) {
      const res = await d.request("POST", `/session/s1/${action}`, { body: {} });
      expect(res.status).toBe(200);
      const { promptTerminals } = await res.json();
      expect(promptTerminals).toEqual([
        {
          v: 1,
          promptId: "p1",
          terminal: "interrupted",
          code: "daemon_lost",
          at: Date.parse(ledger[1]!.timestamp),
        },
        ...["p2", "p3"].map((promptId, i) => ({
          v: 1,
          promptId,
          terminal: "interrupted",
          code: "never_started",
          text: i === 0 ? "queued one" : "queued two",
          queuedAt: Date.parse("2025-01-01T00:00:01.000Z"),
          at: expect.any(Number),
        })),
      ]);
    }
    // Judged once: p1 settled and compacted away, p2 and p3 kept with their report. Nothing was rerun.
    expect(journal.entries.map((e) => [e.type, e.promptId])).toEqual([
      ["accepted", "p2"],
      ["accepted", "p3"],
      ["never_started", "p2"],
      ["never_started", "p3"],
    ]);
    expect(d.agent.callsOf("session/prompt")).toEqual([]);
  });

  it("a session the agent never saved, known from the journal, is recreated under its id instead of a 404", async () => {
    const journal = memoryPromptJournal();
    await journal.append(TEST_WORKSPACE, accepted("p1", "my first prompt"));
    const d = createTestDaemon({ promptJournal: journal, agent: {} });
    const res = await d.request("POST", "/session/s1/load", { body: {} });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ sessionId: "s1", compactedReplay: [] });
    expect(body.promptTerminals).toEqual([
      expect.objectContaining({ promptId: "p1", code: "never_started", text: "my first prompt" }),
    ]);
    expect(d.agent.callsOf("session/new")[0]?.params._meta).toEqual({ "qwen-code/sessionId": "s1" });
    // Unknown to the journal too: still a 404.
    expect((await d.request("POST", "/session/other/load", { body: {} })).status).toBe(404);
  });
});
