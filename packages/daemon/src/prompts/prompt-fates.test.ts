import type { LedgerEntry, TranscriptRecord } from "@qwen-daemon/core";
import { describe, expect, it } from "vitest";
import {
  closingsAtLoad,
  compactedPromptJournal,
  NEVER_STARTED_KEPT,
  neverStartedTerminals,
  openPrompts,
  startedPromptIds,
} from "./prompt-fates.js";
import type { PromptJournalEntry } from "./prompt-record.js";

const accepted = (promptId: string, text = `text of ${promptId}`): PromptJournalEntry => ({
  v: 1,
  type: "accepted",
  sessionId: "s1",
  promptId,
  text,
  queuedAt: "2025-01-01T00:00:01.000Z",
});
const closed = (type: "settled" | "withdrawn" | "never_started", promptId: string): PromptJournalEntry => ({
  v: 1,
  type,
  sessionId: "s1",
  promptId,
  at: "2025-01-01T00:00:09.000Z",
});
const ledger = (promptId: string): LedgerEntry => ({
  promptId,
  state: "in_flight",
  timestamp: "2025-01-01T00:00:02.000Z",
});

describe("prompt fates", () => {
  it("open prompts are the accepted ones nothing closed", () => {
    const entries = [
      accepted("p1"),
      accepted("p2"),
      accepted("p3"),
      accepted("p4"),
      closed("settled", "p1"),
      closed("withdrawn", "p3"),
    ];
    expect(openPrompts(entries).map((p) => p.promptId)).toEqual(["p2", "p4"]);
  });

  it("a load settles the open prompts the agent started and marks the others never started", () => {
    const entries = [accepted("p1"), accepted("p2"), accepted("p3"), closed("settled", "p1")];
    expect(closingsAtLoad(entries, new Set(["p2"]), "2025-01-01T00:01:00.000Z")).toEqual([
      { v: 1, type: "settled", sessionId: "s1", promptId: "p2", at: "2025-01-01T00:01:00.000Z" },
      { v: 1, type: "never_started", sessionId: "s1", promptId: "p3", at: "2025-01-01T00:01:00.000Z" },
    ]);
  });

  it("started means a user message in the transcript; the ledger decides only for transcripts without prompt ids", () => {
    const base = { parentUuid: null, sessionId: "s1", timestamp: "t", cwd: "/w", version: "1" };
    const user = (uuid: string, promptId?: string): TranscriptRecord => ({
      ...base,
      uuid,
      type: "user",
      message: { role: "user", parts: [{ text: "hi" }] },
      ...(promptId !== undefined ? { promptId } : {}),
    });
    const system: TranscriptRecord = { ...base, uuid: "s", type: "system", subtype: "session_created" };
    // Begun in the ledger, cut off before its user message: not started.
    expect(startedPromptIds({ records: [user("u1", "p1")], ledger: [ledger("p1"), ledger("p2")] })).toEqual(
      new Set(["p1"]),
    );
    expect(startedPromptIds({ records: [system], ledger: [ledger("p1")] })).toEqual(new Set());
    // Another agent's transcript (no prompt ids), or none the daemon can read: the ledger's word.
    expect(startedPromptIds({ records: [user("u1")], ledger: [ledger("p1")] })).toEqual(new Set(["p1"]));
    expect(startedPromptIds({ records: undefined, ledger: [ledger("p1")] })).toEqual(new Set(["p1"]));
  });

  it("reports never-started prompts as interrupted terminals with their text", () => {
    const entries = [accepted("p1", "do the thing"), accepted("p2"), closed("never_started", "p1")];
    expect(neverStartedTerminals(entries)).toEqual([
      {
        v: 1,
        promptId: "p1",
        terminal: "interrupted",
        code: "never_started",
        text: "do the thing",
        queuedAt: Date.parse("2025-01-01T00:00:01.000Z"),
        at: Date.parse("2025-01-01T00:00:09.000Z"),
      },
    ]);
  });

  it("compaction drops what ran or was withdrawn, keeps what is open and the newest reported ones", () => {
    const entries = [
      accepted("ran"),
      closed("settled", "ran"),
      accepted("refused"),
      closed("withdrawn", "refused"),
      accepted("lost"),
      closed("never_started", "lost"),
      accepted("queued"),
    ];
    expect(compactedPromptJournal(entries).map((e) => [e.type, e.promptId])).toEqual([
      ["accepted", "lost"],
      ["never_started", "lost"],
      ["accepted", "queued"],
    ]);
    const many = Array.from({ length: NEVER_STARTED_KEPT + 5 }, (_, i) => [
      accepted(`p${i}`),
      closed("never_started", `p${i}`),
    ]).flat();
    const kept = compactedPromptJournal(many);
    expect(kept).toHaveLength(2 * NEVER_STARTED_KEPT);
    expect(kept[0]?.promptId).toBe("p5");
  });
});
