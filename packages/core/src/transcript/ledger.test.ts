import { appendFileSync, readFileSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { jsonlSessionStorage } from "../storage/jsonl/jsonl-storage.js";
import { ledgerPath } from "../storage/jsonl/paths.js";
import { InvalidSessionIdError } from "../storage/session-id.js";
import { DAEMON_LOST, openPromptIds, PromptLedger } from "./ledger.js";
import type { LedgerEntry } from "./records.js";

let qwenHome: string;
beforeEach(async () => {
  qwenHome = await mkdtemp(join(tmpdir(), "ledger-test-"));
});
afterEach(async () => {
  await rm(qwenHome, { recursive: true, force: true });
});

const location = () => ({ storage: jsonlSessionStorage(qwenHome), cwd: "/w", sessionId: "s-1" });
const clock = () => {
  let t = Date.UTC(2025, 0, 1);
  return () => {
    t += 1000;
    return new Date(t);
  };
};

describe("PromptLedger", () => {
  it("lives beside the transcript and validates the session id", () => {
    expect(PromptLedger.forSession(location()).path).toBe(ledgerPath(qwenHome, "/w", "s-1"));
    expect(() => PromptLedger.forSession({ ...location(), sessionId: "../x" })).toThrow(
      InvalidSessionIdError,
    );
  });

  it("has in_flight on disk as soon as begin resolves, then a terminal after finish", async () => {
    const ledger = PromptLedger.forSession(location(), { now: clock() });
    const begun = await ledger.begin("p1");
    expect(begun).toEqual({ promptId: "p1", state: "in_flight", timestamp: "2025-01-01T00:00:01.000Z" });
    expect(readFileSync(ledger.path, "utf8")).toBe(`${JSON.stringify(begun)}\n`);
    expect(statSync(ledger.path).mode & 0o777).toBe(0o600);
    expect(await ledger.openPrompts()).toEqual(["p1"]);

    const done = await ledger.finish("p1", "completed", { stopReason: "end_turn", code: undefined });
    expect(done).toEqual({
      promptId: "p1",
      state: "completed",
      timestamp: "2025-01-01T00:00:02.000Z",
      stopReason: "end_turn",
    });
    expect(await ledger.read()).toEqual([begun, done]);
    expect(await ledger.openPrompts()).toEqual([]);
    await ledger.close();
  });

  it("closes every open prompt as interrupted / daemon_lost", async () => {
    const ledger = PromptLedger.forSession(location(), { now: clock() });
    await ledger.begin("p1");
    await ledger.finish("p1", "cancelled");
    await ledger.begin("p2");
    await ledger.begin("p3");
    const closed = await ledger.closeInterrupted();
    expect(closed.map((e) => [e.promptId, e.state, e.code, "restoredBy" in e])).toEqual([
      ["p2", "interrupted", DAEMON_LOST, false],
      ["p3", "interrupted", DAEMON_LOST, false],
    ]);
    expect(await ledger.openPrompts()).toEqual([]);
    expect(await ledger.closeInterrupted()).toEqual([]);
    await ledger.close();
  });

  it("records which restore prompt took over, leaving that prompt open", async () => {
    const ledger = PromptLedger.forSession(location(), { now: clock() });
    await ledger.begin("original");
    await ledger.begin("restore-1");
    const closed = await ledger.closeInterrupted("restored", "restore-1");
    expect(closed).toEqual([
      {
        promptId: "original",
        state: "interrupted",
        timestamp: expect.any(String),
        code: "restored",
        restoredBy: "restore-1",
      },
    ]);
    expect(await ledger.openPrompts()).toEqual(["restore-1"]);
    await ledger.close();
  });

  it("survives a restart: a new ledger object sees what the old one wrote", async () => {
    const before = PromptLedger.forSession(location());
    await before.begin("p1");
    await before.close();
    const after = PromptLedger.forSession(location());
    expect(await after.openPrompts()).toEqual(["p1"]);
    await after.closeInterrupted();
    expect(await after.openPrompts()).toEqual([]);
    await after.close();
  });

  it("reads a missing ledger as empty and tolerates torn and corrupt lines", async () => {
    const ledger = PromptLedger.forSession(location());
    expect(await ledger.read()).toEqual([]);
    expect(await ledger.openPrompts()).toEqual([]);
    await ledger.begin("p1");
    await ledger.close();
    // A crash mid-write, then a restart with a new ledger object (one writer per file at a time).
    appendFileSync(
      ledger.path,
      'garbage\n{"promptId":"p9","state":"bogus","timestamp":"t"}\n{"promptId":"p1","sta',
    );
    const restarted = PromptLedger.forSession(location());
    expect((await restarted.read()).map((e) => e.promptId)).toEqual(["p1"]);
    expect(await restarted.openPrompts()).toEqual(["p1"]);
    // The next entry lands on its own line after the torn one.
    await restarted.finish("p1", "completed");
    expect(await restarted.openPrompts()).toEqual([]);
    await restarted.close();
  });

  it("refuses an empty prompt id", async () => {
    const ledger = PromptLedger.forSession(location());
    await expect(ledger.begin("")).rejects.toThrow(/Invalid prompt ledger entry/);
    await ledger.close();
  });
});

describe("openPromptIds", () => {
  const entry = (promptId: string, state: LedgerEntry["state"]): LedgerEntry => ({
    promptId,
    state,
    timestamp: "t",
  });
  it("keeps prompts whose last state is in_flight, in order of first appearance", () => {
    expect(
      openPromptIds([
        entry("a", "in_flight"),
        entry("b", "in_flight"),
        entry("a", "completed"),
        entry("c", "in_flight"),
        entry("c", "failed"),
        entry("a", "in_flight"),
      ]),
    ).toEqual(["a", "b"]);
  });
});
