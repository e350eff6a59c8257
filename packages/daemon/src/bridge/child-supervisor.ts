// Keeps one ACP child alive for the workspace: spawned on first use, initialized once, replaced on the
// next use after it dies. Shutdown ends its whole process tree: SIGTERM, then SIGKILL after a grace.

import { agentUnavailable } from "../errors/domain-errors.js";
import type { Clock } from "../events/clock.js";
import type { ChannelFactory } from "./channel.js";
import { ChildConnection, type ChildDeath, type ChildHandlers } from "./child-connection.js";
import { forwardStderr } from "./stderr-forwarder.js";

export type ChildSupervisorOptions = {
  workspace: string;
  factory: ChannelFactory;
  handlers: ChildHandlers;
  clock: Clock;
  log: (line: string) => void;
  /** Literal secrets redacted from the child's stderr. */
  secrets?: readonly string[];
  /** Called once per child death (after it is no longer `current`). */
  onDeath: (child: ChildConnection, death: ChildDeath) => void;
};

export type ChildInfo = { pid: number | undefined; startedAt: string; alive: boolean };

export const DEFAULT_KILL_GRACE_MS = 5000;

export class ChildSupervisor {
  readonly #options: ChildSupervisorOptions;
  #current: ChildConnection | undefined;
  #starting: Promise<ChildConnection> | undefined;
  #closed = false;
  #spawnCount = 0;

  constructor(options: ChildSupervisorOptions) {
    this.#options = options;
  }

  get current(): ChildConnection | undefined {
    return this.#current?.alive ? this.#current : undefined;
  }

  get spawnCount(): number {
    return this.#spawnCount;
  }

  describe(): ChildInfo[] {
    const child = this.current;
    return child === undefined
      ? []
      : [{ pid: child.pid, startedAt: new Date(child.startedAt).toISOString(), alive: child.alive }];
  }

  /** The live, initialized child, spawning one if needed. Throws 503 `agent_unavailable` on failure. */
  ensure(): Promise<ChildConnection> {
    if (this.#closed) return Promise.reject(agentUnavailable("the daemon is shutting down"));
    const current = this.current;
    if (current !== undefined) return Promise.resolve(current);
    if (this.#starting === undefined) {
      this.#starting = this.#start().finally(() => {
        this.#starting = undefined;
      });
    }
    return this.#starting;
  }

  async #start(): Promise<ChildConnection> {
    const { factory, workspace, handlers, clock, log } = this.#options;
    let channel: ReturnType<ChannelFactory>;
    try {
      channel = factory({ workspace });
    } catch (error) {
      throw agentUnavailable(`could not start the agent: ${message(error)}`);
    }
    this.#spawnCount += 1;
    const child = new ChildConnection(channel, handlers, () => clock.now());
    const prefix = `[acp-child${channel.pid === undefined ? "" : ` ${channel.pid}`}] `;
    if (channel.stderr !== undefined) {
      void forwardStderr(channel.stderr, { prefix, log, secrets: this.#options.secrets ?? [] });
    }
    void child.died.then((death) => {
      if (this.#current === child) this.#current = undefined;
      log(`qwen serve: agent process ${channel.pid ?? ""} ended (${death.reason})`);
      try {
        this.#options.onDeath(child, death);
      } catch (error) {
        log(
          `qwen serve: cleaning up after the agent process failed: ${error instanceof Error ? error.stack : String(error)}`,
        );
      }
    });
    try {
      await child.initialize();
    } catch (error) {
      child.kill("SIGKILL");
      child.disconnect();
      throw agentUnavailable(`the agent failed to initialize: ${message(error)}`);
    }
    if (this.#closed) {
      child.kill("SIGKILL");
      throw agentUnavailable("the daemon is shutting down");
    }
    this.#current = child;
    return child;
  }

  /**
   * Stops the child and refuses new spawns: SIGTERM to its process group, SIGKILL after `graceMs` if it
   * is still there. Resolves once the child is gone (or after a further grace if even SIGKILL is not
   * observed, e.g. an in-memory channel that ignores signals).
   */
  async shutdown(graceMs = DEFAULT_KILL_GRACE_MS): Promise<void> {
    this.#closed = true;
    const starting = this.#starting;
    // Only waiting for a spawn in progress to settle; its failure already went to its own caller.
    if (starting !== undefined) await starting.then(noop, noop);
    const child = this.#current;
    if (child === undefined || !child.alive) return;
    child.kill("SIGTERM");
    if (await this.#waitDeath(child, graceMs)) return;
    this.#options.log(
      `qwen serve: agent process ${child.pid ?? ""} ignored SIGTERM for ${graceMs}ms; sending SIGKILL`,
    );
    child.kill("SIGKILL");
    if (!(await this.#waitDeath(child, graceMs))) child.disconnect();
  }

  /** Kills the child at once (second signal: exit now). */
  killNow(): void {
    this.#closed = true;
    this.#current?.kill("SIGKILL");
  }

  #waitDeath(child: ChildConnection, ms: number): Promise<boolean> {
    const { clock } = this.#options;
    return new Promise((resolve) => {
      const timer = clock.setTimeout(() => resolve(false), ms);
      void child.died.then(() => {
        clock.clearTimeout(timer);
        resolve(true);
      });
    });
  }
}

function noop(): void {}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
