import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { jsonlSessionStorage, PromptLedger, transcriptPath } from "@qwen-daemon/core";
import { describe, expect, it } from "vitest";
import { coreSessionStore } from "./core-session-store.js";

const cwd = "/work/project";

function record(uuid: string, type: string, extra: Record<string, unknown>) {
  return JSON.stringify({
    uuid,
    parentUuid: null,
    sessionId: "s-1",
    timestamp: "2025-01-01T00:00:00.000Z",
    cwd,
    version: "1",
    type,
    ...extra,
  });
}

function home(): string {
  const root = mkdtempSync(join(tmpdir(), "qwen-home-"));
  const path = transcriptPath(root, cwd, "s-1");
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(
    path,
    `${[
      record("u1", "user", { message: { role: "user", parts: [{ text: "first question" }] } }),
      record("u2", "assistant", { message: { role: "model", parts: [{ text: "answer" }] } }),
    ].join("\n")}\n{"torn":`,
  );
  return root;
}

describe("coreSessionStore", () => {
  it("lists, gets and reads persisted sessions through core", async () => {
    const store = coreSessionStore(jsonlSessionStorage(home()));
    const [session] = await store.list(cwd);
    expect(session).toMatchObject({ sessionId: "s-1", displayName: "first question" });
    expect(await store.get(cwd, "s-1")).toMatchObject({ sessionId: "s-1" });
    expect((await store.readRecords(cwd, "s-1"))?.map((r) => r.uuid)).toEqual(["u1", "u2"]);
    expect((await store.readRecords(cwd, "s-1", 1))?.map((r) => r.uuid)).toEqual(["u2"]);
  });

  it("reads the trailing turn from the end of the transcript", async () => {
    const store = coreSessionStore(jsonlSessionStorage(home()));
    // The fixture's records do not link (parentUuid null), so the window is there but not certain.
    expect(await store.readTrailingTurn(cwd, "s-1")).toMatchObject({
      records: [expect.objectContaining({ uuid: "u2" })],
      certain: false,
      tornTail: true,
    });
    expect(await store.readTrailingTurn(cwd, "nope")).toBeUndefined();
    expect(await store.readTrailingTurn(cwd, "../../etc/passwd")).toBeUndefined();
  });

  it("reads the prompt ledger the child wrote; none (or an invalid id) is no entries", async () => {
    const root = home();
    const ledger = PromptLedger.forSession(
      { storage: jsonlSessionStorage(root), cwd, sessionId: "s-1" },
      { now: () => new Date("2025-01-01T00:00:05.000Z") },
    );
    await ledger.begin("p1");
    await ledger.finish("p1", "interrupted", { code: "daemon_lost" });
    await ledger.close();
    const store = coreSessionStore(jsonlSessionStorage(root));
    expect(await store.readPromptLedger(cwd, "s-1")).toEqual([
      { promptId: "p1", state: "in_flight", timestamp: "2025-01-01T00:00:05.000Z" },
      { promptId: "p1", state: "interrupted", timestamp: "2025-01-01T00:00:05.000Z", code: "daemon_lost" },
    ]);
    expect(await store.readPromptLedger(cwd, "nope")).toEqual([]);
    expect(await store.readPromptLedger(cwd, "../../etc/passwd")).toEqual([]);
  });

  it("answers undefined for unknown or invalid ids without touching other paths", async () => {
    const store = coreSessionStore(jsonlSessionStorage(home()));
    expect(await store.get(cwd, "nope")).toBeUndefined();
    expect(await store.readRecords(cwd, "nope")).toBeUndefined();
    expect(await store.readRecords(cwd, "../../etc/passwd")).toBeUndefined();
    expect(await store.list("/no/such/project")).toEqual([]);
  });
});
