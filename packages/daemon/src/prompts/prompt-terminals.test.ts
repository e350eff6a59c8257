import type { LedgerEntry } from "@qwen-daemon/core";
import { describe, expect, it } from "vitest";
import { PROMPT_TERMINALS_LIMIT, promptTerminalsOf } from "./prompt-terminals.js";

const at = (second: number) => `2025-01-01T00:00:${String(second).padStart(2, "0")}.000Z`;

describe("promptTerminalsOf", () => {
  it("keeps terminal entries in ledger order in the reference's wire shape, plus restoredBy", () => {
    const ledger: LedgerEntry[] = [
      { promptId: "p1", state: "in_flight", timestamp: at(1) },
      { promptId: "p1", state: "completed", timestamp: at(2), stopReason: "end_turn" },
      { promptId: "p2", state: "in_flight", timestamp: at(3) },
      { promptId: "p2", state: "interrupted", timestamp: at(4), code: "restored", restoredBy: "p3" },
      { promptId: "p3", state: "in_flight", timestamp: at(5) },
      { promptId: "p3", state: "failed", timestamp: at(6), message: "model exploded" },
      { promptId: "p4", state: "cancelled", timestamp: at(7), stopReason: "cancelled" },
      { promptId: "p5", state: "interrupted", timestamp: at(8), code: "daemon_lost" },
    ];
    expect(promptTerminalsOf(ledger)).toEqual([
      { v: 1, promptId: "p1", terminal: "completed", stopReason: "end_turn", at: Date.parse(at(2)) },
      {
        v: 1,
        promptId: "p2",
        terminal: "interrupted",
        code: "restored",
        restoredBy: "p3",
        at: Date.parse(at(4)),
      },
      // Our ledger's `failed` is the reference's `error`; the message stays on disk.
      { v: 1, promptId: "p3", terminal: "error", at: Date.parse(at(6)) },
      { v: 1, promptId: "p4", terminal: "cancelled", stopReason: "cancelled", at: Date.parse(at(7)) },
      { v: 1, promptId: "p5", terminal: "interrupted", code: "daemon_lost", at: Date.parse(at(8)) },
    ]);
  });

  it("is undefined when nothing has ended (empty ledger, or only prompts in flight)", () => {
    expect(promptTerminalsOf([])).toBeUndefined();
    expect(promptTerminalsOf([{ promptId: "p1", state: "in_flight", timestamp: at(1) }])).toBeUndefined();
  });

  it("skips entries whose timestamp is not a date", () => {
    expect(
      promptTerminalsOf([{ promptId: "p1", state: "completed", timestamp: "yesterday" }]),
    ).toBeUndefined();
  });

  it("returns only the most recent entries", () => {
    const ledger: LedgerEntry[] = Array.from({ length: PROMPT_TERMINALS_LIMIT + 3 }, (_, i) => ({
      promptId: `p${i}`,
      state: "completed" as const,
      timestamp: at(0),
    }));
    const terminals = promptTerminalsOf(ledger) ?? [];
    expect(PROMPT_TERMINALS_LIMIT).toBe(64);
    expect(terminals).toHaveLength(PROMPT_TERMINALS_LIMIT);
    expect(terminals[0]?.promptId).toBe("p3");
    expect(terminals.at(-1)?.promptId).toBe(`p${PROMPT_TERMINALS_LIMIT + 2}`);
  });

  it("merges the journal's never-started prompts by time, in place of a ledger entry for the same prompt", () => {
    const ledger: LedgerEntry[] = [
      { promptId: "p1", state: "completed", timestamp: at(1) },
      { promptId: "p2", state: "in_flight", timestamp: at(2) },
      { promptId: "p2", state: "interrupted", code: "daemon_lost", timestamp: at(4) },
    ];
    const never = (promptId: string, when: number) => ({
      v: 1 as const,
      promptId,
      terminal: "interrupted" as const,
      code: "never_started",
      text: `text of ${promptId}`,
      at: Date.parse(at(when)),
    });
    expect(
      promptTerminalsOf(ledger, [never("p2", 5), never("p3", 3)])?.map((t) => [t.promptId, t.code]),
    ).toEqual([
      ["p1", undefined],
      ["p3", "never_started"],
      ["p2", "never_started"],
    ]);
  });
});
