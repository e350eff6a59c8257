import { beforeEach, describe, expect, it } from "vitest";
import { Drafts } from "../interactions/drafts.js";
import { ApiError } from "../net/api.js";
import { ClientIds } from "../net/client-ids.js";
import { FakeApi, FakeStreams, ManualClock, memoryStorage, settle } from "../testing/fake-daemon.js";
import { AnswerMemory } from "./answer-memory.js";
import type { ControllerEvent } from "./controller-types.js";
import { VOTE_COUNTED } from "./session-actions.js";
import { ASKED_AGAIN, SessionController } from "./session-controller.js";

const SUBMIT = { optionId: "proceed_once", name: "Submit", kind: "allow_once" };
const CANCEL = { optionId: "cancel", name: "Cancel", kind: "reject_once" };

function questionRequest(requestId: string, toolCallId = "call_ask") {
  return {
    requestId,
    sessionId: "s1",
    options: [SUBMIT, CANCEL],
    toolCall: {
      toolCallId,
      title: "Ask user 1 question",
      kind: "think",
      _meta: {
        toolName: "ask_user_question",
        qwenInteractionKind: "user_question",
        qwenQuestions: [
          {
            question: "Which format?",
            header: "Format",
            options: [{ label: "Short note" }, { label: "Checklist" }],
          },
        ],
      },
    },
  };
}

const askToolCall = (status: string) => ({
  type: "session_update",
  data: {
    update: {
      sessionUpdate: "tool_call",
      toolCallId: "call_ask",
      title: "Ask user 1 question",
      kind: "think",
      status,
    },
  },
});

type World = {
  api: FakeApi;
  streams: FakeStreams;
  clock: ManualClock;
  storage: ReturnType<typeof memoryStorage>;
  controller: SessionController;
  events: ControllerEvent[];
  detached: string[];
};

function world(storage = memoryStorage()): World {
  const api = new FakeApi();
  const streams = new FakeStreams();
  const clock = new ManualClock();
  const detached: string[] = [];
  let n = 0;
  const controller = new SessionController({
    api,
    clientIds: new ClientIds(storage),
    drafts: new Drafts(storage),
    clock,
    openStream: streams.open,
    freshClientId: () => `web_hint${++n}`,
    device: "web_device_here",
    answers: new AnswerMemory(storage),
    detach: (sessionId, clientId) => void detached.push(`${sessionId}:${clientId}`),
  });
  const events: ControllerEvent[] = [];
  controller.subscribe((e) => events.push(e));
  api.on("GET /capabilities", () => ({ workspaceCwd: "/ws" }));
  api.on("GET /health", () => ({ status: "ok" }));
  api.on("POST /session", () => ({ sessionId: "s1", clientId: "client_1" }));
  api.on("POST /session/s1/prompt", () => ({ promptId: "p1" }));
  api.on("POST /session/s1/permission/r1", () => ({}));
  return { api, streams, clock, storage, controller, events, detached };
}

const types = (w: World) => w.events.map((e) => e.type);
const notes = (w: World) =>
  w.controller.items.flatMap((i) => (i.kind === "notice" || i.kind === "error" ? [i.text] : []));

describe("SessionController", () => {
  let w: World;
  beforeEach(async () => {
    w = world();
    await w.controller.connect();
  });

  it("creates a session, follows it from cursor 0 and sends a message with its client id", async () => {
    expect(await w.controller.create()).toBe(true);
    expect(w.streams.last.options).toMatchObject({ url: "/session/s1/events", lastEventId: 0 });
    expect(w.streams.last.options.headers()).toEqual({ "x-qwen-client-id": "client_1" });
    w.streams.last.state("live");
    expect(w.controller.connection).toBe("live");
    expect(w.controller.canAct).toBe(true);
    w.controller.saveComposer("Plan my week");
    expect(await w.controller.send("Plan my week")).toBe(true);
    expect(w.api.callsTo("POST", "/session/s1/prompt")).toEqual([
      {
        method: "POST",
        path: "/session/s1/prompt",
        body: { prompt: [{ type: "text", text: "Plan my week" }] },
        clientId: "client_1",
      },
    ]);
    expect(w.controller.busy).toBe(true);
    expect(w.controller.title).toBe("Plan my week");
    // The draft was sent: it is not kept any more.
    expect(w.controller.composerDraft()).toBe("");
  });

  it("reads a prompt's 202 after the stream told more: the turn is over, the queue empty, the next draft kept", async () => {
    await w.controller.create();
    const stream = w.streams.last;
    stream.state("live");
    w.api.on("POST /session/s1/prompt", () => {
      // A loaded machine: the stream's events are handled before the POST's answer, and the person types on.
      stream.emit("pending_prompt_added", { promptId: "p1", text: "Plan my week", position: 1 });
      stream.emit("pending_prompt_started", { promptId: "p1" });
      stream.emit("session_update", { update: { sessionUpdate: "user_message_chunk" } }, { promptId: "p1" });
      stream.emit("turn_complete", { promptId: "p1", stopReason: "end_turn" }, { promptId: "p1" });
      w.controller.saveComposer("and the next one");
      return { promptId: "p1", queuePosition: 1 };
    });
    w.controller.saveComposer("Plan my week");
    expect(await w.controller.send("Plan my week")).toBe(true);
    expect(w.controller.busy).toBe(false);
    expect(w.controller.queued).toEqual([]);
    expect(w.controller.composerDraft()).toBe("and the next one");
  });

  it("where several people answer (consensus), a vote's 200 only counts it: the card stays until the stream's decision", async () => {
    w.api.on("GET /capabilities", () => ({ workspaceCwd: "/ws", policy: { permission: "consensus" } }));
    await w.controller.connect();
    await w.controller.create();
    const stream = w.streams.last;
    stream.state("live");
    stream.emit("permission_request", questionRequest("r1"));
    await w.controller.vote("r1", SUBMIT, { "0": "Checklist" });
    expect(w.controller.interactions.map((i) => i.requestId)).toEqual(["r1"]);
    expect(w.controller.cardState("r1")).toEqual({ sending: false, status: VOTE_COUNTED });
    // The tally arriving before the 200 stays shown.
    w.api.on("POST /session/s1/permission/r1", () => {
      stream.emit("permission_partial_vote", {
        requestId: "r1",
        votesReceived: 1,
        votesNeeded: 1,
        quorum: 2,
      });
      return {};
    });
    await w.controller.vote("r1", SUBMIT, { "0": "Checklist" });
    expect(w.controller.cardState("r1")).toEqual({ sending: false, status: "1 vote so far; 1 more needed." });
    stream.emit("permission_resolved", {
      requestId: "r1",
      outcome: { outcome: "selected", optionId: "proceed_once" },
      voterClientId: "client_other",
    });
    expect(w.controller.interactions).toEqual([]);
    expect(w.controller.items.at(-1)).toMatchObject({ kind: "answer", verdict: "Answered" });
  });

  it("shows a live question, answers it and says so in the conversation", async () => {
    await w.controller.create();
    const stream = w.streams.last;
    stream.state("live");
    stream.emit("permission_request", questionRequest("r1"));
    expect(w.controller.interactions.map((i) => [i.requestId, i.kind, i.restored])).toEqual([
      ["r1", "question", false],
    ]);
    expect(w.events.filter((e) => e.type === "attention")).toHaveLength(1);
    expect(w.events).toContainEqual({ type: "announce", text: "The agent asks you a question." });
    const key = w.controller.interactions[0]!.key;
    w.controller.saveSelection(key, [{ picked: ["Checklist"] }]);

    await w.controller.vote("r1", SUBMIT, { "0": "Checklist" });
    expect(w.api.callsTo("POST", "/session/s1/permission/r1")[0]).toMatchObject({
      body: { outcome: { outcome: "selected", optionId: "proceed_once" }, answers: { "0": "Checklist" } },
      clientId: "client_1",
    });
    expect(w.controller.interactions).toEqual([]);
    expect(w.controller.items.at(-1)).toMatchObject({
      kind: "answer",
      by: "you",
      verdict: "Answered",
      subject: "Which format?",
      lines: [{ label: "Format", value: "Checklist" }],
    });
    // The resolved event that follows changes nothing more, and the kept selection is gone.
    stream.emit("permission_resolved", {
      requestId: "r1",
      outcome: { outcome: "selected", optionId: "proceed_once" },
      voterClientId: "client_1",
    });
    expect(w.controller.items.filter((i) => i.kind === "answer")).toHaveLength(1);
    expect(w.controller.selectionFor(key)).toBeUndefined();
  });

  it("says who answered when another client did, with the answers the event carries", async () => {
    await w.controller.create();
    w.streams.last.emit("permission_request", questionRequest("r1"));
    w.streams.last.emit("permission_resolved", {
      requestId: "r1",
      outcome: { outcome: "selected", optionId: "proceed_once" },
      voterClientId: "client_other",
      answers: { "0": "Short note" },
    });
    expect(w.controller.interactions).toEqual([]);
    expect(w.controller.items.at(-1)).toMatchObject({
      kind: "answer",
      by: "other",
      detail: "from another app (an editor or a script)",
      lines: [{ label: "Format", value: "Short note" }],
    });
    expect(types(w)).toContain("interaction-removed");
  });

  it("tells the person's own answer from another device, or another tab of this browser, by the voter's device", async () => {
    await w.controller.create();
    const resolve = (requestId: string, voterDevice: string) => {
      w.streams.last.emit("permission_request", questionRequest(requestId));
      w.streams.last.emit("permission_resolved", {
        requestId,
        outcome: { outcome: "selected", optionId: "proceed_once" },
        voterClientId: `client_${requestId}`,
        voterDevice,
        answers: { "0": "Short note" },
      });
      return w.controller.items.at(-1);
    };
    expect(resolve("r1", "web_device_phone")).toMatchObject({
      by: "device",
      detail: "on another of your devices",
    });
    expect(resolve("r2", "web_device_here")).toMatchObject({ by: "you" });
  });

  it("shows the answer lines it showed before after a reload: the replayed history has the call, this browser the record", async () => {
    await w.controller.create();
    w.streams.last.emit("permission_request", questionRequest("r1"));
    await w.controller.vote("r1", SUBMIT, { "0": "Checklist" });
    const shown = w.controller.items.filter((i) => i.kind === "answer");
    expect(shown).toMatchObject([{ by: "you", verdict: "Answered" }]);
    w.api.on("POST /session/s1/load", () => ({
      sessionId: "s1",
      clientId: "client_2",
      compactedReplay: [askToolCall("completed")],
      lastEventId: 1,
      eventEpoch: "E2",
    }));
    await w.controller.open("s1", "Plan", { kind: "pick", onDisk: true });
    expect(w.controller.items.map((i) => i.kind)).toEqual(["tool", "answer"]);
    expect(w.controller.items.filter((i) => i.kind === "answer")).toEqual(shown);
  });

  it("during an outage: pauses sending, keeps drafts, probes /health and wakes the stream when it is back", async () => {
    await w.controller.create();
    const stream = w.streams.last;
    stream.state("live");
    stream.emit("permission_request", questionRequest("r1"));
    const key = w.controller.interactions[0]!.key;
    w.controller.saveSelection(key, [{ picked: ["Short note"] }]);
    w.controller.saveComposer("half a thought");

    w.api.down = true;
    stream.state("unreachable", "Failed to fetch");
    expect(w.controller.connection).toBe("down");
    expect(w.controller.canAct).toBe(false);
    expect(w.controller.banner).toMatchObject({ tone: "outage", action: { label: "Retry now" } });
    const before = w.api.calls.length;
    expect(await w.controller.send("hello")).toBe(false);
    await w.controller.vote("r1", SUBMIT, { "0": "Short note" });
    expect(w.api.calls.length).toBe(before);
    // The card stays, and so does what was picked and typed.
    expect(w.controller.interactions).toHaveLength(1);
    expect(w.controller.selectionFor(key)).toEqual([{ picked: ["Short note"] }]);
    expect(w.controller.composerDraft()).toBe("half a thought");

    w.clock.advance(600);
    await settle();
    expect(w.api.callsTo("GET", "/health").length).toBeGreaterThan(0);
    expect(stream.wakes).toBe(0);
    w.api.down = false;
    w.clock.advance(5000);
    await settle();
    expect(stream.wakes).toBe(1);
    expect(w.controller.connection).toBe("reconnecting");
    // Found again, the probes stop.
    const probes = w.api.callsTo("GET", "/health").length;
    w.clock.advance(60_000);
    await settle();
    expect(w.api.callsTo("GET", "/health").length).toBe(probes);
  });

  it("after a restart: reloads under its client id and tells the person the agent is asking again, selection kept", async () => {
    await w.controller.create();
    const first = w.streams.last;
    first.state("live");
    first.emit("permission_request", questionRequest("r1"));
    const key = w.controller.interactions[0]!.key;
    w.controller.saveSelection(key, [{ picked: ["Checklist"] }]);
    w.api.down = true;
    first.state("unreachable", "Failed to fetch");
    w.api.down = false;
    w.api.on("POST /session/s1/load", () => ({
      sessionId: "s1",
      clientId: "client_2",
      compactedReplay: [askToolCall("in_progress")],
      lastEventId: 1,
      eventEpoch: "E2",
    }));
    first.end({ kind: "gone", status: 404 });
    await settle();
    expect(w.api.callsTo("POST", "/session/s1/load")[0]?.clientId).toBe("client_1");
    expect(w.controller.banner).toBeUndefined();
    expect(w.controller.clientId).toBe("client_2");
    const second = w.streams.last;
    expect(second).not.toBe(first);
    expect(second.options).toMatchObject({ lastEventId: 1, epoch: "E2" });
    expect(notes(w)).toEqual(["The daemon restarted. Reloaded this session from its saved history."]);

    second.state("live");
    second.emit("permission_request", questionRequest("r-new"));
    const again = w.controller.interactions[0]!;
    expect(again).toMatchObject({ requestId: "r-new", restored: true, key });
    expect(w.controller.selectionFor(again.key)).toEqual([{ picked: ["Checklist"] }]);
    // The reload line became the "asking you again" line: one notice, not two.
    expect(notes(w)).toEqual([ASKED_AGAIN]);
    expect(w.events).toContainEqual({ type: "announce", text: ASKED_AGAIN });
  });

  it("a session opened from the list after a restart marks its re-asked question; a live one does not", async () => {
    w.api.on("POST /session/s1/load", () => ({
      sessionId: "s1",
      clientId: "client_9",
      compactedReplay: [askToolCall("in_progress")],
      lastEventId: 1,
    }));
    await w.controller.open("s1", "Tidy the garage", { kind: "pick", onDisk: true });
    w.streams.last.emit("permission_request", questionRequest("r2"));
    expect(w.controller.interactions[0]?.restored).toBe(true);
    expect(notes(w)).toEqual([ASKED_AGAIN]);
    // A fresh hint was offered: this tab had no client id for the session.
    expect(w.api.callsTo("POST", "/session/s1/load")[0]?.clientId).toBe("web_hint1");

    const live = world();
    live.api.on("POST /session/s1/load", () => ({
      sessionId: "s1",
      clientId: "c",
      compactedReplay: [askToolCall("in_progress")],
    }));
    await live.controller.open("s1", "x", { kind: "pick", onDisk: false });
    live.streams.last.emit("permission_request", questionRequest("r3"));
    expect(live.controller.interactions[0]?.restored).toBe(false);
    expect(notes(live)).toEqual([]);
  });

  it("reloads at most 3 times a minute on its own, then offers a button", async () => {
    let loads = 0;
    w.api.on("POST /session/s1/load", () => {
      loads += 1;
      return { sessionId: "s1", clientId: "client_1" };
    });
    await w.controller.create();
    for (let i = 0; i < 4; i++) {
      w.streams.last.end({ kind: "gone", status: 404 });
      await settle();
    }
    expect(loads).toBe(3);
    expect(w.controller.banner).toMatchObject({ tone: "error", action: { label: "Reload session" } });
    w.controller.banner?.action?.run();
    await settle();
    expect(loads).toBe(4);
  });

  it("a dead agent drops its cards, says so and offers a reload", async () => {
    await w.controller.create();
    w.streams.last.emit("permission_request", questionRequest("r1"));
    w.streams.last.emit("session_died", { reason: "exit 137" });
    expect(w.controller.dead).toBe(true);
    expect(w.controller.canAct).toBe(false);
    expect(w.controller.interactions).toEqual([]);
    expect(notes(w)).toEqual(["The agent process for this session stopped (exit 137)."]);
    expect(w.controller.banner?.action?.label).toBe("Reload session");
  });

  it("a session another server took over drops its cards and names that server", async () => {
    await w.controller.create();
    w.streams.last.emit("permission_request", questionRequest("r1"));
    w.streams.last.emit("session_owned_elsewhere", { sessionId: "s1", owner: "http://b.example:4170" });
    expect(w.controller.interactions).toEqual([]);
    expect(notes(w)).toEqual([
      "Another server took this session over (http://b.example:4170): continue it there.",
    ]);
  });

  it("a vote the daemon no longer knows (404) removes the card with a note; other failures keep it", async () => {
    await w.controller.create();
    w.streams.last.emit("permission_request", questionRequest("r1"));
    w.streams.last.emit("permission_request", questionRequest("r2", "call_2"));
    w.api.on("POST /session/s1/permission/r1", () => new Error("boom"));
    await w.controller.vote("r1", SUBMIT, { "0": "Checklist" });
    expect(w.controller.cardState("r1")).toEqual({
      sending: false,
      error: "Could not send your answer: boom",
    });
    w.api.routes.delete("POST /session/s1/permission/r2");
    await w.controller.vote("r2", SUBMIT, { "0": "Checklist" });
    expect(w.controller.interactions.map((i) => i.requestId)).toEqual(["r1"]);
    expect(notes(w)).toEqual(["That request was already answered or is no longer waiting."]);
  });

  it("catches up from the transcript when its cursor fell out of the ring, then follows without a cursor", async () => {
    w.api.on("GET /session/s1/transcript", () => ({
      events: [
        {
          type: "session_update",
          data: { update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "old" } } },
        },
      ],
    }));
    await w.controller.create();
    w.streams.last.end({ kind: "resync", reason: "ring_evicted" });
    await settle();
    expect(w.controller.items.map((i) => i.kind)).toEqual(["agent", "notice"]);
    expect(w.streams.last.options.lastEventId).toBeUndefined();
  });

  it("asks for a token on 401s, from the API or the stream", async () => {
    const locked = world();
    locked.api.on("GET /capabilities", () => new ApiError(401, "Unauthorized", undefined, {}));
    expect(await locked.controller.connect()).toBe(false);
    expect(types(locked)).toContain("token-needed");
    await w.controller.create();
    w.streams.last.end({ kind: "unauthorized", status: 401 });
    expect(types(w)).toContain("token-needed");
  });

  it("a daemon down at boot: connect() waits and retries once /health answers", async () => {
    const boot = world();
    boot.api.down = true;
    expect(await boot.controller.connect()).toBe(false);
    expect(boot.controller.connection).toBe("down");
    boot.api.down = false;
    boot.clock.advance(1000);
    await settle();
    expect(boot.controller.workspace).toBe("/ws");
    expect(boot.controller.connection).toBe("idle");
    expect(types(boot)).toContain("list-changed");
  });

  it("opening another session detaches from the previous one", async () => {
    await w.controller.create();
    w.api.on("POST /session/s2/load", () => ({ sessionId: "s2", clientId: "client_b" }));
    await w.controller.open("s2", "Other");
    expect(w.detached).toEqual(["s1:client_1"]);
    expect(w.streams.all[0]?.closed).toBe(true);
    expect(w.controller.title).toBe("Other");
  });

  it("takes the agent's own title over the first prompt's, until a person renames the session", async () => {
    await w.controller.create();
    await w.controller.send("Plan my week and then some");
    w.streams.last.emit("session_update", {
      update: { sessionUpdate: "session_info_update", title: "Weekly plan\nsecond line" },
    });
    expect(w.controller.title).toBe("Weekly plan");
    expect(w.controller.agentTitle).toBe("Weekly plan");
    // The list's name (its first prompt) does not replace it.
    w.controller.setTitle("Plan my week and then some");
    expect(w.controller.title).toBe("Weekly plan");
    w.api.on("POST /session/s1/name", () => ({ sessionId: "s1", displayName: "Mine" }));
    expect(await w.controller.rename("Mine")).toBe(true);
    expect(w.controller.title).toBe("Mine");
    expect(w.controller.agentTitle).toBeUndefined();
    w.streams.last.emit("session_update", {
      update: { sessionUpdate: "session_info_update", title: "Another plan" },
    });
    expect(w.controller.title).toBe("Mine");
  });

  it("reports the session's options, sets one through the daemon and follows the agent's updates", async () => {
    const model = (current: string) => ({
      id: "model",
      name: "Model",
      type: "select",
      category: "model",
      currentValue: current,
      options: [
        { value: "a", name: "A" },
        { value: "b", name: "B" },
      ],
    });
    w.api.on("POST /session", () => ({ sessionId: "s1", clientId: "client_1", configOptions: [model("a")] }));
    await w.controller.create();
    w.streams.last.state("live");
    expect(w.controller.configOptions.map((o) => o.currentValue)).toEqual(["a"]);
    w.api.on("POST /session/s1/config", () => ({ sessionId: "s1", configOptions: [model("b")] }));
    expect(await w.controller.setConfig("model", "b")).toBe(true);
    expect(w.api.callsTo("POST", "/session/s1/config")[0]).toMatchObject({
      body: { configId: "model", value: "b" },
      clientId: "client_1",
    });
    expect(w.controller.configOptions.map((o) => o.currentValue)).toEqual(["b"]);
    w.streams.last.emit("session_update", {
      update: { sessionUpdate: "config_option_update", configOptions: [model("a"), { junk: true }] },
    });
    expect(w.controller.configOptions.map((o) => o.currentValue)).toEqual(["a"]);
    // A value the agent refuses: false, a banner, the options as they were.
    w.api.on("POST /session/s1/config", () => new ApiError(400, "Unknown model: c", undefined, {}));
    expect(await w.controller.setConfig("model", "c")).toBe(false);
    expect(w.controller.banner?.text).toContain("Unknown model: c");
    expect(w.controller.configOptions.map((o) => o.currentValue)).toEqual(["a"]);
  });

  it("deletes the open session with purge=true and then has none open; a failure keeps it", async () => {
    await w.controller.create();
    w.streams.last.state("live");
    w.api.on(
      "DELETE /session/s1?purge=true",
      () => new ApiError(501, "No delete here", "agent_unsupported", {}),
    );
    expect(await w.controller.deleteSession()).toBeUndefined();
    expect(w.controller.sessionId).toBe("s1");
    expect(w.controller.banner?.text).toContain("No delete here");
    w.api.on("DELETE /session/s1?purge=true", () => ({}));
    expect(await w.controller.deleteSession()).toBe("s1");
    expect(w.api.callsTo("DELETE", "/session/s1?purge=true").at(-1)?.clientId).toBe("client_1");
    expect(w.controller.sessionId).toBeUndefined();
    expect(w.controller.title).toBe("No session open");
    expect(w.controller.items).toEqual([]);
    expect(w.streams.last.closed).toBe(true);
    expect(types(w)).toContain("list-changed");
  });
});
