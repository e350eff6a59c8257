import { SESSION_CREATED_SUBTYPE } from "@qwen-daemon/core";
import { describe, expect, it } from "vitest";
import { coreSessionStore } from "../persisted/core-session-store.js";
import { editRequest, questionRequest } from "../testing/question.js";
import { StoredSessions, type StoredTranscript, type TranscriptStep } from "../testing/stored-sessions.js";
import { createTestDaemon, TEST_WORKSPACE, waitFor } from "../testing/test-daemon.js";

// Listed as { sessionId: "disk-old", createdAt 2025-01-01, updatedAt 2025-01-02, displayName: "old one" } and
// { sessionId: "disk-new", createdAt 2025-02-01, updatedAt 2025-02-02 } (created, never prompted).
const onDisk: StoredTranscript[] = [
  {
    sessionId: "disk-old",
    cwd: TEST_WORKSPACE,
    createdAt: "2025-01-01T00:00:00.000Z",
    updatedAt: "2025-01-02T00:00:00.000Z",
    steps: [{ user: [{ text: "old one" }] }],
  },
  {
    sessionId: "disk-new",
    cwd: TEST_WORKSPACE,
    createdAt: "2025-02-01T00:00:00.000Z",
    updatedAt: "2025-02-02T00:00:00.000Z",
    steps: [{ system: SESSION_CREATED_SUBTYPE }],
  },
];
async function stored(transcripts: readonly StoredTranscript[]) {
  const sessions = new StoredSessions();
  for (const transcript of transcripts) await sessions.transcript(transcript);
  return sessions.storage;
}
const encoded = encodeURIComponent(TEST_WORKSPACE);

describe("GET /session/:id/status", () => {
  it("projects a live session waiting for a question and an edit permission", async () => {
    let step = 0;
    const d = createTestDaemon({
      agent: {
        prompt: async (params, peer) => {
          const sid = String(params.sessionId);
          step += 1;
          await Promise.all([
            peer.requestPermission(questionRequest(sid)),
            peer.requestPermission(editRequest(sid)),
          ]);
          return { stopReason: "end_turn" };
        },
      },
    });
    const { sessionId } = await d.createSession();
    const idle = await (await d.request("GET", `/session/${sessionId}/status`)).json();
    expect(idle).toMatchObject({
      sessionId,
      workspaceCwd: TEST_WORKSPACE,
      clientCount: 1,
      hasActivePrompt: false,
      activeWorkState: "idle",
      isWaitingForPermission: false,
      isWaitingForUserQuestion: false,
      pendingInteractionCount: 0,
      hasTurnError: false,
      pendingInteractions: [],
    });
    await d.request("POST", `/session/${sessionId}/prompt`, {
      body: { prompt: [{ type: "text", text: "go" }] },
    });
    await waitFor(() => d.sessions.mediator.pending(sessionId).length === 2, "two requests");
    expect(step).toBe(1);
    const busy = await (await d.request("GET", `/session/${sessionId}/status`)).json();
    expect(busy).toMatchObject({
      hasActivePrompt: true,
      activeWorkState: "active",
      isWaitingForPermission: true,
      isWaitingForUserQuestion: true,
      pendingInteractionCount: 2,
    });
    const [question, edit] = busy.pendingInteractions;
    expect(question).toEqual({
      requestId: expect.any(String),
      kind: "user_question",
      createdAt: expect.any(String),
      title: "Ask user 1 question(s)",
      questions: [
        {
          question: "Which color?",
          header: "Color",
          options: [
            { label: "Red", description: "warm" },
            { label: "Blue", description: "cool" },
          ],
          multiSelect: false,
          answerKey: "0",
        },
      ],
      options: [
        { optionId: "proceed_once", label: "Submit", kind: "allow_once" },
        { optionId: "cancel", label: "Cancel", kind: "reject_once" },
      ],
    });
    expect(edit).toEqual({
      requestId: expect.any(String),
      kind: "permission",
      createdAt: expect.any(String),
      action: {
        type: "edit",
        title: "Write notes.txt",
        content: [{ type: "diff", path: "/w/notes.txt", oldText: null, newText: "hi" }],
        locations: [{ path: "/w/notes.txt" }],
        input: { path: "notes.txt", content: "hi" },
      },
      options: [
        { optionId: "proceed_always", label: "Allow All Edits", kind: "allow_always" },
        { optionId: "proceed_once", label: "Allow", kind: "allow_once" },
        { optionId: "cancel", label: "Reject", kind: "reject_once" },
      ],
    });
  });

  it("reports a turn error until the next turn", async () => {
    const d = createTestDaemon({
      agent: {
        prompt: async () => {
          throw new Error("model exploded");
        },
      },
    });
    const { sessionId } = await d.createSession();
    await d.request("POST", `/session/${sessionId}/prompt`, {
      body: { prompt: [{ type: "text", text: "go" }] },
    });
    await waitFor(() => d.sessions.require(sessionId).turnError !== undefined, "turn error");
    const status = await (await d.request("GET", `/session/${sessionId}/status`)).json();
    expect(status.hasTurnError).toBe(true);
    expect(status.turnError).toMatchObject({ message: expect.stringContaining("model exploded") });
  });

  it("a session only on disk is 404 here (load or resume it) and is found through the list", async () => {
    const d = createTestDaemon({ storage: await stored(onDisk) });
    const res = await d.request("GET", "/session/disk-old/status");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: 'No session with id "disk-old"',
      code: "session_not_found",
      sessionId: "disk-old",
    });
    const list = await (await d.request("GET", `/workspace/${encoded}/sessions`)).json();
    expect(list.sessions.find((s: { sessionId: string }) => s.sessionId === "disk-old")).toEqual({
      sessionId: "disk-old",
      workspaceCwd: TEST_WORKSPACE,
      createdAt: "2025-01-01T00:00:00.000Z",
      updatedAt: "2025-01-02T00:00:00.000Z",
      displayName: "old one",
      live: false,
      clientCount: 0,
      hasActivePrompt: false,
      pendingPromptCount: 0,
      activeWorkState: "idle",
      isWaitingForPermission: false,
      isWaitingForUserQuestion: false,
      pendingInteractionCount: 0,
      hasTurnError: false,
      pendingInteractions: [],
    });
    expect((await d.request("GET", "/session/..%2Fescape/status")).status).toBe(400);
  });

  it("after DELETE a session whose transcript exists is 404, and lists again as on disk only", async () => {
    const d = createTestDaemon({
      agent: { persisted: { "disk-old": [] } },
      storage: await stored(onDisk),
    });
    const { clientId } = await (await d.request("POST", "/session/disk-old/load", { body: {} })).json();
    expect((await d.request("GET", "/session/disk-old/status")).status).toBe(200);
    const del = await d.request("DELETE", "/session/disk-old", { headers: { "X-Qwen-Client-Id": clientId } });
    expect(del.status).toBe(204);
    const after = await d.request("GET", "/session/disk-old/status", {
      headers: { "X-Qwen-Client-Id": clientId },
    });
    expect(after.status).toBe(404);
    expect(await after.json()).toEqual({
      error: 'No session with id "disk-old"',
      code: "session_not_found",
      sessionId: "disk-old",
    });
    const list = await (await d.request("GET", `/workspace/${encoded}/sessions`)).json();
    expect(list.sessions.find((s: { sessionId: string }) => s.sessionId === "disk-old")).toMatchObject({
      live: false,
      clientCount: 0,
      createdAt: "2025-01-01T00:00:00.000Z",
    });
    // Loading it again brings it back.
    expect((await d.request("POST", "/session/disk-old/load", { body: {} })).status).toBe(200);
    expect((await d.request("GET", "/session/disk-old/status")).status).toBe(200);
  });
});

describe("GET /workspace/:cwd/sessions", () => {
  it("merges live sessions over persisted ones, newest first", async () => {
    const d = createTestDaemon({
      storage: await stored([...onDisk, { ...onDisk[0]!, sessionId: "sess-1" }]),
    });
    await d.createSession();
    const res = await d.request("GET", `/workspace/${encoded}/sessions`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.sessions.map((s: { sessionId: string; live: boolean }) => [s.sessionId, s.live])).toEqual([
      ["sess-1", true],
      ["disk-new", false],
      ["disk-old", false],
    ]);
    expect(body.nextCursor).toBeUndefined();
  });

  it("paginates with size and an opaque cursor", async () => {
    const d = createTestDaemon({ storage: await stored(onDisk) });
    const page1 = await (await d.request("GET", `/workspace/${encoded}/sessions?size=1`)).json();
    expect(page1.sessions.map((s: { sessionId: string }) => s.sessionId)).toEqual(["disk-new"]);
    expect(typeof page1.nextCursor).toBe("string");
    const page2 = await (
      await d.request("GET", `/workspace/${encoded}/sessions?size=1&cursor=${page1.nextCursor}`)
    ).json();
    expect(page2.sessions.map((s: { sessionId: string }) => s.sessionId)).toEqual(["disk-old"]);
    expect(page2.nextCursor).toBeUndefined();
  });

  it("400 for bad size, bad cursor, a relative cwd or another workspace", async () => {
    const d = createTestDaemon();
    expect((await d.request("GET", `/workspace/${encoded}/sessions?size=0`)).status).toBe(400);
    expect((await d.request("GET", `/workspace/${encoded}/sessions?size=abc`)).status).toBe(400);
    expect((await d.request("GET", `/workspace/${encoded}/sessions?cursor=zzz`)).status).toBe(400);
    expect((await d.request("GET", "/workspace/relative/sessions")).status).toBe(400);
    const other = await d.request("GET", `/workspace/${encodeURIComponent("/elsewhere")}/sessions`);
    expect(other.status).toBe(400);
    expect((await other.json()).code).toBe("workspace_mismatch");
  });
});

describe("GET /session/:id/transcript", () => {
  // A turn: user, assistant with a call, its result, and the system record that closes it (which makes no event).
  const turn: TranscriptStep[] = [
    { user: [{ text: "hi" }], uuid: "u1" },
    { model: [{ text: "hello" }, { functionCall: { id: "c1", name: "ls", args: {} } }], uuid: "u2" },
    { toolResult: [{ functionResponse: { id: "c1", name: "ls", response: { output: "a b" } } }] },
    { system: "turn_result" },
  ];
  const oneTurn = () => stored([{ sessionId: "disk-old", cwd: TEST_WORKSPACE, steps: turn }]);

  it("returns persisted history as session_update events", async () => {
    const d = createTestDaemon({ storage: await oneTurn() });
    const res = await d.request("GET", "/session/disk-old/transcript");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.v).toBe(1);
    expect(body.sessionId).toBe("disk-old");
    expect(
      body.events.map((e: { data: { update: { sessionUpdate: string } } }) => e.data.update.sessionUpdate),
    ).toEqual(["user_message_chunk", "agent_message_chunk", "tool_call", "tool_call_update"]);
    // A message is named by its record's uuid, as the agent names it live and in a load's replay.
    expect(body.events[0].data.update.messageId).toBe("u1");
    expect(body.events[1].data.update.messageId).toBe("u2");
    expect(body.events[3].data.update).toMatchObject({ toolCallId: "c1", status: "completed" });
    const limited = await (await d.request("GET", "/session/disk-old/transcript?limit=2")).json();
    expect(limited.events).toHaveLength(2);
  });

  it("?limit=N reads only the transcript's tail, and gives the same events as the whole read would", async () => {
    // 1,000 turns of user + assistant + tool result + a system record (which makes no event): 4,000 records,
    // more than twice what the largest limit may read.
    const long: TranscriptStep[] = [];
    for (let i = 0; i < 1000; i += 1)
      long.push(...turn.map((step) => ("uuid" in step ? { ...step, uuid: `${step.uuid}-${i}` } : step)));
    const store = coreSessionStore(
      await stored([{ sessionId: "disk-old", cwd: TEST_WORKSPACE, steps: long }]),
    );
    const asked: Array<number | undefined> = [];
    const spy = {
      ...store,
      readRecords: (cwd: string, id: string, limit?: number) => {
        asked.push(limit);
        return store.readRecords(cwd, id, limit);
      },
    };
    const d = createTestDaemon({ store: spy });
    const whole = (await (await d.request("GET", "/session/disk-old/transcript")).json()).events;
    expect(asked).toEqual([undefined]);
    for (const limit of [1, 3, 7, 500]) {
      asked.length = 0;
      const tail = (await (await d.request("GET", `/session/disk-old/transcript?limit=${limit}`)).json())
        .events;
      expect(tail.map((e: { data: unknown }) => e.data)).toEqual(
        whole.slice(-limit).map((e: { data: unknown }) => e.data),
      );
      // Numbered within the answer: the tail is read without the rest, so positions in the whole are unknown.
      expect(tail.map((e: { id: number }) => e.id)).toEqual(Array.from({ length: limit }, (_, i) => i + 1));
      expect(asked.every((n) => n !== undefined && n <= 4 * limit + 8)).toBe(true);
    }
  });

  it("400 for a bad limit or id, 404 for an unknown session", async () => {
    const d = createTestDaemon({ storage: await oneTurn() });
    for (const limit of ["0", "501", "x"]) {
      const res = await d.request("GET", `/session/disk-old/transcript?limit=${limit}`);
      expect(res.status).toBe(400);
      expect((await res.json()).code).toBe("invalid_transcript_limit");
    }
    expect((await d.request("GET", "/session/a..b/transcript")).status).toBe(400);
    expect((await d.request("GET", "/session/unknown/transcript")).status).toBe(404);
  });
});
