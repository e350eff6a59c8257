// The two ways a notification leaves the daemon, at the edge: a command run with the event's JSON on stdin
// (`--notify-command`), and an HTTP POST of the same JSON (`--notify-webhook`, signed with HMAC-SHA256 when
// `--notify-secret` is set). Each attempt is bounded in time; a failure rejects with a readable reason and
// the notifier retries.
import { spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import type { NotifyEvent } from "./notify-event.js";

export type Sender = {
  /** "command" or "webhook": the outbox entries name their receiver. */
  readonly name: string;
  /** Resolves once delivered; rejects with why not. */
  send(event: NotifyEvent): Promise<void>;
};

export const DEFAULT_SEND_TIMEOUT_MS = 10_000;
const STDERR_KEPT = 2048;

/** The `X-Qwen-Signature` of a webhook body: HMAC-SHA256 over `<timestamp>.<body>`, hex. */
export function webhookSignature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

export function commandSender(
  argv: readonly string[],
  options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Sender {
  const [program, ...args] = argv;
  if (program === undefined) throw new TypeError("commandSender: the command is empty");
  const timeoutMs = options.timeoutMs ?? DEFAULT_SEND_TIMEOUT_MS;
  return {
    name: "command",
    send: (event) =>
      new Promise<void>((resolve, reject) => {
        const child = spawn(program, args, {
          stdio: ["pipe", "ignore", "pipe"],
          // Its own process group, so a command that hangs is stopped with everything it started.
          detached: true,
          env: {
            ...(options.env ?? process.env),
            // For one-line shell commands that do not parse JSON (notify-send "$QWEN_NOTIFY_TITLE" ...).
            QWEN_NOTIFY_ID: event.id,
            QWEN_NOTIFY_TYPE: event.type,
            QWEN_NOTIFY_TITLE: event.title,
            QWEN_NOTIFY_URL: event.url,
            QWEN_NOTIFY_SESSION: event.sessionId,
            // One line per answer action, `label<TAB>url` (tabs and newlines in a label become spaces).
            QWEN_NOTIFY_ACTIONS: (event.actions ?? [])
              .map((a) => `${a.label.replace(/[\t\r\n]/g, " ")}\t${a.url}`)
              .join("\n"),
          },
        });
        let stderr = "";
        child.stderr?.on("data", (chunk: Buffer) => {
          if (stderr.length < STDERR_KEPT)
            stderr += chunk.toString("utf8").slice(0, STDERR_KEPT - stderr.length);
        });
        const timer = setTimeout(() => {
          killGroup(child.pid);
          reject(new Error(`the notify command did not finish within ${timeoutMs} ms`));
        }, timeoutMs);
        timer.unref();
        child.once("error", (error) => {
          clearTimeout(timer);
          reject(new Error(`the notify command could not start: ${error.message}`));
        });
        child.once("exit", (code, signal) => {
          clearTimeout(timer);
          if (code === 0) resolve();
          else {
            const why = signal ? `was killed by ${signal}` : `exited with ${code}`;
            reject(new Error(`the notify command ${why}${stderr ? `: ${stderr.trim()}` : ""}`));
          }
        });
        // A command that does not read its stdin is fine; its exit code decides.
        child.stdin?.on("error", () => undefined);
        child.stdin?.end(`${JSON.stringify(event)}\n`);
      }),
  };
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch (error) {
    // Already gone: nothing to stop.
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}

export function webhookSender(
  url: string,
  options: { secret?: string | undefined; timeoutMs?: number; fetch?: typeof fetch; now?: () => number } = {},
): Sender {
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? DEFAULT_SEND_TIMEOUT_MS;
  return {
    name: "webhook",
    async send(event) {
      const body = JSON.stringify(event);
      const timestamp = String(Math.floor(now() / 1000));
      const headers: Record<string, string> = {
        "content-type": "application/json",
        "user-agent": "qwen-serve-notify/1",
        "x-qwen-notification-id": event.id,
        "x-qwen-timestamp": timestamp,
      };
      if (options.secret) headers["x-qwen-signature"] = webhookSignature(options.secret, timestamp, body);
      let res: Response;
      try {
        res = await doFetch(url, { method: "POST", headers, body, signal: AbortSignal.timeout(timeoutMs) });
      } catch (error) {
        throw new Error(
          `the webhook could not be reached: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      try {
        // Drain the body so the connection can be reused.
        await res.arrayBuffer();
      } catch {
        // Its content does not matter: the status decides.
      }
      if (!res.ok) throw new Error(`the webhook answered ${res.status}`);
    },
  };
}
