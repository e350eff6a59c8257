// What both crash suites do to a session, whatever they judge: a daemon started with the suite's switch, one
// session with its event stream (every frame goes to the suite's observer, then to its kill trigger), prompts,
// the agent frozen, the SIGKILL (the whole tree, the daemon alone or the ACP child alone), the wait until the
// crash has happened everywhere, a load of the session the way a client would (a new daemon unless only the
// child died), and the loop that brings a session to rest. What a suite answers and checks is its own
// (crash-run.ts, approval-run.ts).
import type { FakeOpenAIServer } from "@qwen-daemon/core/testing";
import type { DaemonProcess } from "../harness/daemon-process.js";
import type { E2eEnv } from "../harness/e2e-env.js";
import { descendantsOf, isAlive, killTree } from "../harness/process-tree.js";
import {
  createSession,
  expectRestored,
  getStatus,
  openEvents,
  postPrompt,
  type Restored,
  type SessionStatus,
} from "../harness/session-api.js";
import type { SseClient, SseFrame } from "../harness/sse-client.js";

export type KillMode = "tree" | "daemon" | "child";

/** How long a re-asked question whose answer was acknowledged may wait for the journal to answer it. */
export const JOURNAL_GRACE_MS = 5_000;
const SETTLE_TIMEOUT_MS = 30_000;
const CRASH_TIMEOUT_MS = 20_000;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class StoryDriver {
  /** Prompt ids answered 202 (and continues a suite accepted). */
  readonly accepted: string[] = [];
  /** Kill points reached, in order (what the run actually did, for the failure message). */
  readonly steps: string[] = [];
  daemon!: DaemonProcess;
  sessionId = "";
  clientId = "";
  events: SseClient | undefined;
  /** Called for every SSE frame as it arrives (a scenario's kill trigger). */
  trigger: ((frame: SseFrame) => void) | undefined;
  protected readonly env: E2eEnv;
  protected readonly server: FakeOpenAIServer;
  readonly #switch: string[];
  readonly #firstRejected: number;
  #frozen: number[] = [];
  #crash: { mode: KillMode; pids: number[] } | undefined;

  constructor(env: E2eEnv, server: FakeOpenAIServer, switchArgs: string[]) {
    this.env = env;
    this.server = server;
    this.#switch = switchArgs;
    this.#firstRejected = server.rejected.length;
  }

  async start(): Promise<void> {
    this.daemon = await this.env.startDaemon(this.#switch);
    const created = await createSession(this.daemon);
    this.sessionId = created.sessionId;
    this.clientId = created.clientId;
    await this.#open(undefined);
  }

  /** POST /prompt; its id is remembered in `accepted` (and must end somehow). */
  async prompt(text: string): Promise<string> {
    const res = await postPrompt(this.daemon, this.sessionId, this.clientId, {
      prompt: [{ type: "text", text }],
    });
    if (res.status !== 202) throw new Error(`prompt ${JSON.stringify(text)}: HTTP ${res.status}`);
    this.accepted.push(res.body.promptId);
    return res.body.promptId;
  }

  /** SIGSTOPs the daemon's children: nothing the daemon sends them now is acted on before the kill. */
  freezeChildren(): void {
    this.#frozen = descendantsOf(this.daemon.pid);
    for (const pid of this.#frozen) process.kill(pid, "SIGSTOP");
  }

  /** The kill itself, synchronous so a frame callback can land it at that very instant; once per recovery. */
  crashNow(mode: KillMode = "tree", step = "kill"): void {
    if (this.#crash !== undefined) return;
    this.steps.push(`${step} (${mode})`);
    const children = descendantsOf(this.daemon.pid);
    let pids = children;
    if (mode === "tree") pids = killTree(this.daemon.pid);
    else if (mode === "daemon") process.kill(this.daemon.pid, "SIGKILL");
    else for (const pid of children) process.kill(pid, "SIGKILL");
    // Frozen children of a killed daemon must run again to see their stdin end.
    if (mode === "daemon") for (const pid of this.#frozen) process.kill(pid, "SIGCONT");
    this.#frozen = [];
    this.#crash = { mode, pids };
    this.trigger = undefined;
  }

  /** Kills at the first frame `pred` accepts (inside the frame callback), or `delayMs` after it. */
  crashOnFrame(
    pred: (f: SseFrame) => boolean,
    {
      delayMs = 0,
      mode = "tree",
      step = "on a frame",
    }: { delayMs?: number; mode?: KillMode; step?: string } = {},
  ): Promise<void> {
    return new Promise((resolve) => {
      this.trigger = (frame) => {
        if (!pred(frame)) return;
        this.trigger = undefined;
        const kill = () => {
          this.crashNow(mode, step);
          resolve();
        };
        if (delayMs === 0) kill();
        else setTimeout(kill, delayMs);
      };
    });
  }

  /**
   * Waits for the crash to have happened everywhere, runs `atKill` (what the files say before anything touches
   * them again), then loads the session (a restarted daemon, or the same one after its child died) and opens
   * its events from the load's cursor.
   */
  protected async reopenAfterCrash(atKill: () => void = () => {}): Promise<Restored> {
    const crash = this.#crash;
    if (crash === undefined) throw new Error("recover() without a crash");
    this.#crash = undefined;
    await this.#afterCrash(crash);
    atKill();
    if (crash.mode !== "child") this.daemon = await this.env.startDaemon(this.#switch);
    const restored = await expectRestored(this.daemon, "load", this.sessionId, this.clientId);
    this.clientId = restored.clientId;
    await this.#open(restored.lastEventId);
    return restored;
  }

  /**
   * Calls `handle` with the session's status until nothing is left: no active prompt, no pending interaction,
   * no pending prompt. `handle` answers what waits (each suite its own way).
   */
  protected async untilAtRest(handle: (status: SessionStatus) => Promise<void>): Promise<void> {
    const deadline = Date.now() + SETTLE_TIMEOUT_MS;
    for (;;) {
      const status = await getStatus(this.daemon, this.sessionId);
      await handle(status);
      const pending = await this.daemon.json<{ pendingPrompts: unknown[] }>(
        "GET",
        `/session/${this.sessionId}/pending-prompts`,
      );
      if (
        !status.hasActivePrompt &&
        status.pendingInteractionCount === 0 &&
        pending.body.pendingPrompts.length === 0
      )
        return;
      if (Date.now() > deadline) throw new Error(`the session never came to rest: ${JSON.stringify(status)}`);
      await sleep(25);
    }
  }

  protected turnComplete(promptId: string): Promise<SseFrame> {
    return this.requireEvents().waitFor(
      (f) => f.event === "turn_complete" && f.json?.promptId === promptId,
      20_000,
      "the final turn_complete",
    );
  }

  /** A line for every request the fake model refused since the run began (its tool pairing check). */
  protected invalidHistory(): string[] {
    return this.server.rejected
      .slice(this.#firstRejected)
      .map((r) => `invalid history: the model rejected request ${r.index} (${r.status}): ${r.reason}`);
  }

  /** Sees every frame before the trigger does (a suite's own bookkeeping). */
  protected observe(_frame: SseFrame): void {}

  protected requireEvents(): SseClient {
    if (this.events === undefined) throw new Error("no event stream open");
    return this.events;
  }

  async dispose(): Promise<void> {
    // Children frozen by a run that failed before its kill.
    for (const pid of this.#frozen) if (isAlive(pid)) process.kill(pid, "SIGCONT");
    await this.events?.close();
  }

  async #afterCrash(crash: { mode: KillMode; pids: number[] }): Promise<void> {
    // The stream ends with the daemon; a live daemon ends it once it has told the child's death.
    await this.events?.finished();
    this.events = undefined;
    if (crash.mode !== "child") await this.daemon.exited;
    const deadline = Date.now() + CRASH_TIMEOUT_MS;
    while (crash.pids.some(isAlive)) {
      if (Date.now() > deadline)
        throw new Error(`processes ${crash.pids.filter(isAlive)} outlived the crash`);
      await sleep(20);
    }
    if (crash.mode !== "child") return;
    // The daemon notices its child's death and ends the session; the client then loads it again.
    for (;;) {
      const res = await this.daemon.json("GET", `/session/${this.sessionId}/status`);
      if (res.status === 404) return;
      if (Date.now() > deadline) throw new Error("the daemon never noticed its child died");
      await sleep(20);
    }
  }

  async #open(lastEventId: number | undefined): Promise<void> {
    const events = await openEvents(
      this.daemon,
      this.sessionId,
      lastEventId === undefined ? {} : { lastEventId },
    );
    events.onFrame = (frame) => {
      this.observe(frame);
      this.trigger?.(frame);
    };
    // Frames that arrived before the callback was set.
    for (const frame of events.frames) {
      this.observe(frame);
      this.trigger?.(frame);
    }
    this.events = events;
  }
}
