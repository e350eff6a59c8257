import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { memorySessionStorage } from "@qwen-daemon/core";
import { afterEach, describe, expect, it } from "vitest";
import { listenEarly } from "./boot/early-server.js";
import { startDaemon } from "./server.js";
import { sampleNotifyEvent } from "./testing/notify-event.js";
import { questionRequest } from "./testing/question.js";
import { ScriptedAgent } from "./testing/scripted-agent.js";
import { closeSocketDaemons, startSocketDaemon, trackDaemon } from "./testing/socket-daemon.js";
import { jsonOf, parseSse, waitFor } from "./testing/test-daemon.js";

/** True while `pid` exists and is not a zombie (an orphan's zombie may linger if init does not reap). */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}
afterEach(closeSocketDaemons);

const start = startSocketDaemon;

describe("startDaemon", () => {
  it("listens on an ephemeral loopback port and answers /health", async () => {
    const { daemon } = await start();
    expect(daemon.hostname).toBe("127.0.0.1");
    expect(daemon.port).toBeGreaterThan(0);
    expect(daemon.url).toBe(`http://127.0.0.1:${daemon.port}`);
    expect(daemon.token).toBeUndefined();
    const res = await fetch(`${daemon.url}/health`);
    expect(await res.json()).toEqual({ status: "ok" });
  });

  it("starts no agent process before a session needs one, unless warmChild is set", async () => {
    const cold = await start();
    await new Promise((r) => setTimeout(r, 50));
    expect(cold.daemon.sessions.children.spawnCount).toBe(0);
    const warm = await start({ warmChild: true });
    await waitFor(() => warm.daemon.sessions.children.describe().length === 1, "the pre-started child");
    expect(warm.daemon.sessions.children.spawnCount).toBe(1);
  });

  it("initializes a prespawned child at start and uses it for the first session, spawning no other", async () => {
    const agent = new ScriptedAgent();
    const prespawned = agent.factory({ workspace: "/work/test-workspace" });
    const logs: string[] = [];
    const daemon = await startDaemon(
      {
        port: 0,
        workspace: "/work/test-workspace",
        childCommand: ["unused"],
        qwenHome: "/tmp/qwen-home-unused",
        log: (l) => logs.push(l),
      },
      {
        prespawnedChild: { channel: prespawned, workspace: "/work/test-workspace" },
        channelFactory: agent.factory,
        storage: memorySessionStorage(),
        shutdownGraceMs: 2000,
      },
    );
    trackDaemon(daemon);
    await waitFor(() => daemon.sessions.children.describe().length === 1, "the prespawned child");
    expect(agent.callsOf("initialize")).toHaveLength(1);
    const res = await fetch(`${daemon.url}/session`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(200);
    expect(agent.spawns).toBe(1);
    expect(daemon.sessions.children.current?.channel).toBe(prespawned);
  });

  it("kills the prespawned child when it fails to start", async () => {
    const agent = new ScriptedAgent();
    const prespawned = agent.factory({ workspace: "/work/test-workspace" });
    const signals: string[] = [];
    const kill = prespawned.kill.bind(prespawned);
    const watched = {
      ...prespawned,
      kill(signal: NodeJS.Signals) {
        signals.push(signal);
        kill(signal);
      },
    };
    await expect(
      startDaemon(
        { port: 0, workspace: "relative/path", childCommand: ["unused"], qwenHome: "/tmp/qwen-home-unused" },
        { prespawnedChild: { channel: watched, workspace: "/work/test-workspace" } },
      ),
    ).rejects.toThrow(/workspace/);
    expect(signals).toEqual(["SIGKILL"]);
  });

  it("generates and logs a token for --require-auth on loopback, and enforces it", async () => {
    const { daemon, logs } = await start({ requireAuth: true });
    expect(daemon.tokenGenerated).toBe(true);
    expect(logs.some((l) => l.includes(daemon.token as string))).toBe(true);
    expect((await fetch(`${daemon.url}/capabilities`)).status).toBe(401);
    const ok = await fetch(`${daemon.url}/capabilities`, {
      headers: { Authorization: `Bearer ${daemon.token}` },
    });
    expect(ok.status).toBe(200);
  });

  it("refuses a foreign Host header over a real socket", async () => {
    const { daemon } = await start();
    const { request } = await import("node:http");
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        { host: "127.0.0.1", port: daemon.port, path: "/health", headers: { Host: "evil.example" } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(403);
  });

  it("drops connections beyond --max-connections", async () => {
    const { daemon } = await start({ maxConnections: 1 });
    const session = await jsonOf(
      await fetch(`${daemon.url}/session`, { method: "POST", body: "{}", headers: { Connection: "close" } }),
    );
    const events = await fetch(`${daemon.url}/session/${session.sessionId}/events`);
    expect(events.status).toBe(200);
    await expect(fetch(`${daemon.url}/health`, { headers: { Connection: "close" } })).rejects.toThrow();
    await events.body?.cancel();
  });

  it("caps nothing with --max-connections 0", async () => {
    const { daemon } = await start({ maxConnections: 0 });
    const session = await jsonOf(await fetch(`${daemon.url}/session`, { method: "POST", body: "{}" }));
    const streams = await Promise.all(
      Array.from({ length: 5 }, () => fetch(`${daemon.url}/session/${session.sessionId}/events`)),
    );
    expect(streams.map((s) => s.status)).toEqual([200, 200, 200, 200, 200]);
    expect((await fetch(`${daemon.url}/health`, { headers: { Connection: "close" } })).status).toBe(200);
    await Promise.all(streams.map((s) => s.body?.cancel()));
  });

  it("releases an SSE subscription when the client disconnects", async () => {
    const { daemon } = await start();
    const session = await jsonOf(await fetch(`${daemon.url}/session`, { method: "POST", body: "{}" }));
    const bus = daemon.sessions.require(session.sessionId).bus;
    const abort = new AbortController();
    const events = await fetch(`${daemon.url}/session/${session.sessionId}/events`, { signal: abort.signal });
    expect(events.status).toBe(200);
    expect(bus.subscriberCount).toBe(1);
    abort.abort();
    await waitFor(() => bus.subscriberCount === 0, "subscription released");
  });

  it("reports a port that is taken", async () => {
    const { daemon } = await start();
    await expect(
      startDaemon({ port: daemon.port, childCommand: ["x"], qwenHome: "/tmp/q", log: () => undefined }),
    ).rejects.toThrow(/cannot listen/);
  });

  it("graceful close: pending permissions resolve as session_closed, SSE ends, the child is stopped", async () => {
    const answers: Array<Record<string, unknown>> = [];
    const agent = new ScriptedAgent({
      prompt: async (params, peer) => {
        answers.push(await peer.requestPermission(questionRequest(String(params.sessionId))));
        return { stopReason: "end_turn" };
      },
    });
    const { daemon } = await start({}, agent);
    const session = await jsonOf(await fetch(`${daemon.url}/session`, { method: "POST", body: "{}" }));
    const events = await fetch(`${daemon.url}/session/${session.sessionId}/events`);
    await fetch(`${daemon.url}/session/${session.sessionId}/prompt`, {
      method: "POST",
      body: JSON.stringify({ prompt: [{ type: "text", text: "ask" }] }),
    });
    await waitFor(() => daemon.sessions.mediator.hasPending(session.sessionId), "question");
    await daemon.close();
    expect(answers[0]).toEqual({
      outcome: { outcome: "cancelled" },
      _meta: { "qwen.daemon.permissionCancelReason": "session_closed" },
    });
    const frames = parseSse(await events.text());
    expect(frames.at(-1)?.event).toBe("session_closed");
    expect(frames.at(-1)?.data?.data).toMatchObject({ reason: "shutdown" });
    await expect(fetch(`${daemon.url}/health`)).rejects.toThrow();
  });
});

describe("startDaemon's notification outbox", () => {
  it("stays under QWEN_HOME with the sessions in another folder, so the file an earlier daemon left loads", async () => {
    const scratch = mkdtempSync(join(tmpdir(), "qwen-outbox-home-"));
    try {
      const qwenHome = join(scratch, "home");
      const folder = join(scratch, "sessions");
      // What the earlier release left: a notification scheduled for later (an `add` without its `key`).
      const entry = {
        key: "n1",
        sender: "webhook",
        event: sampleNotifyEvent(),
        dueAt: Date.now() + 3_600_000,
        attempts: 0,
      };
      mkdirSync(join(qwenHome, "notify"), { recursive: true });
      writeFileSync(join(qwenHome, "notify", "outbox.jsonl"), `${JSON.stringify({ op: "add", entry })}\n`);
      const agent = new ScriptedAgent();
      const daemon = await startDaemon(
        {
          port: 0,
          workspace: "/work/test-workspace",
          childCommand: ["unused"],
          qwenHome,
          storage: folder,
          notifyWebhook: "http://127.0.0.1:9/hook",
          log: () => {},
        },
        { channelFactory: agent.factory, shutdownGraceMs: 2000 },
      );
      trackDaemon(daemon);
      // Loaded (and compacted into the current format, with its key) where it was, not looked for elsewhere.
      await waitFor(
        () => readFileSync(join(qwenHome, "notify", "outbox.jsonl"), "utf8").includes('"key":"n1","entry"'),
        "the outbox loaded from QWEN_HOME",
      );
      expect(existsSync(join(folder, "notify"))).toBe(false);
    } finally {
      await closeSocketDaemons();
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

describe("startDaemon on a socket bound early (the cli's fast path)", () => {
  const internals = (agent: ScriptedAgent) => ({
    channelFactory: agent.factory,
    storage: memorySessionStorage(),
    shutdownGraceMs: 2000,
  });
  const input = {
    workspace: "/work/test-workspace",
    childCommand: ["x"],
    qwenHome: "/tmp/q",
    log: () => undefined,
  };

  it("serves the requests that arrived while it was loading, and everything after", async () => {
    const bound = await listenEarly({ port: 0, hostname: "127.0.0.1" });
    const url = `http://127.0.0.1:${(bound.server.address() as { port: number }).port}`;
    expect((await fetch(`${url}/health`)).status).toBe(200);
    const early = fetch(`${url}/session`, { method: "POST", body: "{}" });
    await new Promise((resolve) => bound.server.once("request", resolve));
    const daemon = await startDaemon({ ...input, port: 0 }, { ...internals(new ScriptedAgent()), bound });
    trackDaemon(daemon);
    expect(daemon.url).toBe(url);
    const created = await early;
    expect(created.status).toBe(200);
    expect((await jsonOf(created)).workspaceCwd).toBe("/work/test-workspace");
    expect((await fetch(`${url}/health`, { headers: { Origin: "http://evil.example" } })).status).toBe(403);
  });

  it("refuses a socket bound for another address, and closes it", async () => {
    const bound = await listenEarly({ port: 0, hostname: "127.0.0.1" });
    const port = (bound.server.address() as { port: number }).port;
    await expect(
      startDaemon(
        { ...input, port: port === 65535 ? 1 : port + 1 },
        { ...internals(new ScriptedAgent()), bound },
      ),
    ).rejects.toThrow(/the socket was bound for 127\.0\.0\.1:0/);
    expect(bound.server.listening).toBe(false);
  });

  it("closes the socket when the options are invalid", async () => {
    const bound = await listenEarly({ port: 0, hostname: "127.0.0.1" });
    await expect(startDaemon({ ...input, port: 0, maxSessions: -1 }, { bound })).rejects.toThrow(
      /Invalid daemon options: maxSessions/,
    );
    expect(bound.server.listening).toBe(false);
  });
});

describe("real child process", () => {
  const tsx = createRequire(import.meta.url).resolve("tsx");
  const fixture = fileURLToPath(new URL("./testing/fixtures/stdio-agent.ts", import.meta.url));

  it("spawns the child with --acp, forwards redacted stderr and ends its whole process tree", async () => {
    const logs: string[] = [];
    const daemon = await startDaemon(
      {
        port: 0,
        workspace: "/tmp",
        childCommand: [process.execPath, "--import", tsx, fixture],
        qwenHome: "/tmp/qwen-home-unused",
        restoreAskUserQuestion: true,
        log: (l) => logs.push(l),
      },
      { storage: memorySessionStorage(), shutdownGraceMs: 2000 },
    );
    trackDaemon(daemon);
    const session = await jsonOf(await fetch(`${daemon.url}/session`, { method: "POST", body: "{}" }));
    expect(session.sessionId).toMatch(/^stdio-\d+$/);
    const events = await fetch(`${daemon.url}/session/${session.sessionId}/events`);
    await fetch(`${daemon.url}/session/${session.sessionId}/prompt`, {
      method: "POST",
      body: JSON.stringify({ prompt: [{ type: "text", text: "go" }] }),
    });
    let text = "";
    const reader = (events.body as ReadableStream<Uint8Array>).getReader();
    while (!text.includes("turn_complete")) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    await reader.cancel();
    const grandchild = Number(/grandchild (\d+)/.exec(text)?.[1]);
    expect(grandchild).toBeGreaterThan(0);
    expect(isRunning(grandchild)).toBe(true);
    await waitFor(() => logs.some((l) => l.includes("stdio-agent ready")), "stderr forwarded");
    expect(logs.filter((l) => l.includes("stdio-agent args"))).toEqual([
      expect.stringMatching(/stdio-agent args: --acp --restore-ask-user-question$/),
    ]);
    const ready = logs.find((l) => l.includes("stdio-agent ready")) as string;
    expect(ready).toMatch(/^\[acp-child \d+\] /);
    expect(ready).toContain("OPENAI_API_KEY=[REDACTED]");
    expect(ready).not.toContain("sk-test");
    await daemon.close();
    await waitFor(() => !isRunning(grandchild), "grandchild gone");
  });
});
