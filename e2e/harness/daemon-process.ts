// Runs the real built `qwen serve` as a child process of the test, on an ephemeral port.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { descendantsOf, isAlive, killTree } from "./process-tree.js";

export const CLI_ENTRY = fileURLToPath(new URL("../../packages/cli/dist/bin.js", import.meta.url));

export interface DaemonProcessOptions {
  args?: string[];
  env?: Record<string, string>;
  cwd: string;
  /** The program that runs `serve` (default: node on the built cli entry), e.g. an installed `qwen` bin. */
  command?: string[];
}

export class DaemonProcess {
  url = "";
  stdout = "";
  stderr = "";
  /** Sent with every `json()` request (e.g. the bearer token of a daemon bound off loopback). */
  defaultHeaders: Record<string, string> = {};
  readonly exited: Promise<number | null>;
  private constructor(readonly child: ChildProcess) {
    this.exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
    child.stdout?.on("data", (d) => {
      this.stdout += d;
    });
    child.stderr?.on("data", (d) => {
      this.stderr += d;
    });
  }

  get pid(): number {
    return this.child.pid as number;
  }

  get port(): number {
    return Number(new URL(this.url).port);
  }

  static async start(opts: DaemonProcessOptions): Promise<DaemonProcess> {
    // The suite runs the BUILT cli; say so plainly instead of a module-not-found from a child process.
    if (opts.command === undefined && !existsSync(CLI_ENTRY)) {
      throw new Error(`${CLI_ENTRY} is missing: build first (\`npm run build\` at the repo root)`);
    }
    const [program, ...prefix] = opts.command ?? [process.execPath, CLI_ENTRY];
    const child = spawn(program as string, [...prefix, "serve", "--port", "0", ...(opts.args ?? [])], {
      cwd: opts.cwd,
      env: { ...process.env, ...opts.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const d = new DaemonProcess(child);
    const deadline = Date.now() + 20_000;
    while (!/listening on (http:\/\/\S+)/.test(d.stdout)) {
      if (child.exitCode !== null) throw new Error(`daemon exited ${child.exitCode}:\n${d.stderr}`);
      if (Date.now() > deadline) throw new Error(`daemon did not start:\n${d.stdout}\n${d.stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    d.url = (/listening on (http:\/\/\S+)/.exec(d.stdout) as RegExpExecArray)[1] as string;
    return d;
  }

  /** Crash: SIGKILL the daemon and every process under it at once. */
  async kill9(): Promise<void> {
    killTree(this.pid);
    await this.exited;
  }

  /**
   * SIGKILL of the daemon process only: its ACP children (own process groups) live on, see their stdin end
   * and close their sessions the way a lost host makes them. Resolves once every child has exited.
   */
  async kill9Alone(timeoutMs = 20_000): Promise<void> {
    const children = descendantsOf(this.pid);
    process.kill(this.pid, "SIGKILL");
    await this.exited;
    const deadline = Date.now() + timeoutMs;
    while (children.some(isAlive)) {
      if (Date.now() > deadline)
        throw new Error(`children ${children.filter(isAlive)} outlived their daemon`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  async stop(): Promise<number | null> {
    if (this.child.exitCode === null) this.child.kill("SIGTERM");
    return this.exited;
  }

  async json<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: T; headers: Headers }> {
    return this.jsonAt<T>(this.url, method, path, body, headers);
  }

  /** Like `json()` but through another address of the same daemon (e.g. a non-loopback interface). */
  async jsonAt<T = Record<string, unknown>>(
    baseUrl: string,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: T; headers: Headers }> {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { "content-type": "application/json", ...this.defaultHeaders, ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as T, headers: res.headers };
  }
}
