import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Content } from "../content.js";
import { jsonlSessionStorage } from "../storage/jsonl/jsonl-storage.js";
import { chatsDir, transcriptPath } from "../storage/jsonl/paths.js";
import { InvalidSessionIdError } from "../storage/session-id.js";
import { historyFromRecords } from "./history.js";
import { readTranscript } from "./reader.js";
import { SessionTranscript, type SessionTranscriptOptions } from "./session-transcript.js";

let qwenHome: string;
beforeEach(async () => {
  qwenHome = await mkdtemp(join(tmpdir(), "session-transcript-test-"));
});
afterEach(async () => {
  await rm(qwenHome, { recursive: true, force: true });
});

const cwd = "/work/project";
const sessionId = "s-1";

function options(extra: Partial<SessionTranscriptOptions> = {}): SessionTranscriptOptions {
  let n = 0;
  let t = Date.UTC(2025, 0, 1);
  return {
    storage: jsonlSessionStorage(qwenHome),
    cwd,
    sessionId,
    version: "1.2.3",
    now: () => {
      t += 1000;
      return new Date(t);
    },
    newUuid: () => `uuid-${++n}`,
    ...extra,
  };
}

const userText = (text: string): Content => ({ role: "user", parts: [{ text }] });
const question: Content = {
  role: "model",
  parts: [{ functionCall: { id: "call-1", name: "ask_user_question", args: { questions: [] } } }],
};
const answer: Content = {
  role: "user",
  parts: [{ functionResponse: { id: "call-1", name: "ask_user_question", response: { output: "ok" } } }],
};

describe("SessionTranscript", () => {
  it("fills every common field and chains records by parentUuid", async () => {
    const transcript = await SessionTranscript.open(options());
    const first = await transcript.appendUser(userText("hello"), { promptId: "p1" });
    const second = await transcript.appendAssistant(question, { model: "qwen3" });
    const third = await transcript.appendToolResult(answer, { callId: "call-1", status: "success" });
    const fourth = await transcript.appendSystem("turn_result", { stopReason: "end_turn" });
    await transcript.close();

    expect(first).toEqual({
      uuid: "uuid-1",
      parentUuid: null,
      sessionId,
      timestamp: "2025-01-01T00:00:01.000Z",
      cwd,
      version: "1.2.3",
      type: "user",
      message: userText("hello"),
      promptId: "p1",
    });
    expect(second).toMatchObject({ uuid: "uuid-2", parentUuid: "uuid-1", type: "assistant", model: "qwen3" });
    expect(third).toMatchObject({ uuid: "uuid-3", parentUuid: "uuid-2", type: "tool_result" });
    expect(third.toolCallResult).toEqual({ callId: "call-1", status: "success" });
    expect(fourth).toMatchObject({ uuid: "uuid-4", parentUuid: "uuid-3", subtype: "turn_result" });
    expect(fourth.data).toEqual({ stopReason: "end_turn" });

    const { records } = await readTranscript(transcriptPath(qwenHome, cwd, sessionId));
    expect(records).toEqual([first, second, third, fourth]);
  });

  it("omits optional fields that were not given", async () => {
    const transcript = await SessionTranscript.open(options());
    await transcript.appendUser(userText("a"));
    await transcript.appendSystem("session_meta");
    await transcript.close();
    const lines = readFileSync(transcript.path, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(Object.keys(lines[0]).sort()).toEqual(
      ["cwd", "message", "parentUuid", "sessionId", "timestamp", "type", "uuid", "version"].sort(),
    );
    expect("data" in lines[1]).toBe(false);
  });

  it("defaults to random uuids, the wall clock and an unknown version", async () => {
    const transcript = await SessionTranscript.open({
      storage: jsonlSessionStorage(qwenHome),
      cwd,
      sessionId,
    });
    const before = Date.now();
    const record = await transcript.appendUser(userText("a"));
    await transcript.close();
    expect(record.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Date.parse(record.timestamp)).toBeGreaterThanOrEqual(before);
    expect(record.version).toBe("unknown");
  });

  it("has the question's functionCall record on disk when appendAssistant resolves", async () => {
    const transcript = await SessionTranscript.open(options());
    await transcript.appendUser(userText("ask me"));
    await transcript.appendAssistant(question);
    // No close: what a SIGKILL right now would leave behind.
    const { records } = await readTranscript(transcript.path);
    expect(records.at(-1)).toMatchObject({ type: "assistant", message: question });
    await transcript.close();
  });

  it("writes the file 0600 under the chats directory", async () => {
    const transcript = await SessionTranscript.open(options());
    await transcript.appendUser(userText("a"));
    await transcript.close();
    expect(transcript.path).toBe(join(chatsDir(qwenHome, cwd), "s-1.jsonl"));
    expect(statSync(transcript.path).mode & 0o777).toBe(0o600);
  });

  it("chains concurrent appends in call order", async () => {
    const transcript = await SessionTranscript.open(options());
    const written = await Promise.all([
      transcript.appendUser(userText("a")),
      transcript.appendAssistant(question),
      transcript.appendToolResult(answer),
      transcript.appendSystem("turn_result"),
    ]);
    await transcript.close();
    const { records } = await readTranscript(transcript.path);
    expect(records).toEqual(written);
    expect(records.map((r) => r.parentUuid)).toEqual([null, "uuid-1", "uuid-2", "uuid-3"]);
  });

  it("continues the chain of an existing transcript", async () => {
    const first = await SessionTranscript.open(options());
    await first.appendUser(userText("a"));
    await first.appendAssistant(question);
    await first.close();

    const reopened = await SessionTranscript.open(options({ newUuid: () => "later" }));
    expect(reopened.lastRecordUuid).toBe("uuid-2");
    const record = await reopened.appendToolResult(answer);
    await reopened.close();
    expect(record.parentUuid).toBe("uuid-2");
    expect((await readTranscript(reopened.path)).records.map((r) => r.uuid)).toEqual([
      "uuid-1",
      "uuid-2",
      "later",
    ]);
  });

  it("continues after a torn last line, on a fresh line, from the last whole record", async () => {
    const first = await SessionTranscript.open(options());
    await first.appendUser(userText("a"));
    await first.close();
    writeFileSync(first.path, `${readFileSync(first.path, "utf8")}{"uuid":"torn","par`);

    const reopened = await SessionTranscript.open(options({ newUuid: () => "next" }));
    const record = await reopened.appendAssistant(question);
    await reopened.close();
    expect(record.parentUuid).toBe("uuid-1");
    const result = await readTranscript(reopened.path);
    expect(result.records.map((r) => r.uuid)).toEqual(["uuid-1", "next"]);
    expect(result).toMatchObject({ corruptLines: 1, tornTail: false });
  });

  it("rejects a message of the wrong role or shape without writing or chaining it", async () => {
    const transcript = await SessionTranscript.open(options());
    await expect(transcript.appendAssistant(userText("not a model turn"))).rejects.toThrow(/"model" message/);
    await expect(transcript.appendToolResult(question)).rejects.toThrow(/"user" message/);
    await expect(
      transcript.appendUser({ role: "user", parts: "nope" } as unknown as Content),
    ).rejects.toThrow(/Invalid user transcript record/);
    expect(transcript.lastRecordUuid).toBeNull();
    expect(await SessionTranscript.exists({ storage: jsonlSessionStorage(qwenHome), cwd, sessionId })).toBe(
      false,
    );
    await transcript.close();
  });

  it("does not chain onto a record that failed to reach the disk", async () => {
    const transcript = await SessionTranscript.open(options());
    const dir = chatsDir(qwenHome, cwd);
    mkdirSync(dirname(dir), { recursive: true });
    writeFileSync(dir, "a file where the chats directory should be");
    await expect(transcript.appendUser(userText("lost"))).rejects.toHaveProperty("code");
    expect(transcript.lastRecordUuid).toBeNull();
    rmSync(dir);
    const record = await transcript.appendUser(userText("kept"));
    await transcript.close();
    expect(record.parentUuid).toBeNull();
  });

  it("validates the session id before touching the disk", async () => {
    for (const bad of ["../x", "a/b", "..", "", "a\0"]) {
      await expect(SessionTranscript.open(options({ sessionId: bad }))).rejects.toBeInstanceOf(
        InvalidSessionIdError,
      );
      await expect(
        SessionTranscript.exists({ storage: jsonlSessionStorage(qwenHome), cwd, sessionId: bad }),
      ).rejects.toBeInstanceOf(InvalidSessionIdError);
    }
  });

  it("tells whether a session has a transcript", async () => {
    expect(await SessionTranscript.exists({ storage: jsonlSessionStorage(qwenHome), cwd, sessionId })).toBe(
      false,
    );
    const transcript = await SessionTranscript.open(options());
    expect(await SessionTranscript.exists({ storage: jsonlSessionStorage(qwenHome), cwd, sessionId })).toBe(
      false,
    );
    await transcript.appendSystem("session_meta");
    await transcript.close();
    expect(await SessionTranscript.exists({ storage: jsonlSessionStorage(qwenHome), cwd, sessionId })).toBe(
      true,
    );
  });

  it("round-trips into API history, leaving a killed question dangling", async () => {
    const transcript = await SessionTranscript.open(options());
    await transcript.appendUser(userText("plan it"));
    await transcript.appendAssistant({ role: "model", parts: [{ text: "Let me ask." }] });
    await transcript.appendAssistant(question);
    await transcript.close();
    const { records } = await readTranscript(transcript.path);
    expect(historyFromRecords(records)).toEqual([
      userText("plan it"),
      { role: "model", parts: [{ text: "Let me ask." }, ...question.parts] },
    ]);
  });
});
