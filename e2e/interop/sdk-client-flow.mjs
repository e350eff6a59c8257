#!/usr/bin/env node
// Drives a `qwen serve` daemon (ours or the reference) through the `DaemonClient` of the npm package
// `@qwen-code/sdk` (0.1.14, needs Node 22): create session -> subscribe SSE -> prompt -> wait for the
// `permission_request` of an ask_user_question -> status -> vote with answers -> turn_complete -> re-vote (404).
// Every observation is printed as one JSON line on stdout, so a test can parse and assert on it.
//
// Usage (Node 22):
//   node sdk-client-flow.mjs <daemonUrl> [--sdk <dir>] [--prompt <text>] [--answer <text>]
//        [--cwd <abs path>] [--mode blocking|nonblocking] [--vote answer|cancel] [--timeout-ms <n>]
//   --sdk       the @qwen-code/sdk package folder (default $QWEN_REF_SDK, else /tmp/qwen-ref/node_modules/@qwen-code/sdk;
//               setup-reference.sh prints it)
//   --prompt    prompt text; the fake model must answer it with an ask_user_question call (default "ASK which database")
//   --answer    free-text answer for question 0 (default "SQLite")
//   --mode      blocking: DaemonClient.prompt() (202 + its own temporary SSE, no client id, Last-Event-ID + epoch);
//               nonblocking: promptNonBlocking() and watch the long-lived subscription (default blocking)
//   --vote      answer (proceed_once + answers) or cancel ({outcome:"cancelled"}) (default answer)
// Exit code: 0 when the whole flow was observed, 1 on failure or timeout (last line says why), 2 on bad usage.
//
// Output lines: {"step": <name>, ...}. Steps: health, capabilities, session, subscribed, event (every SSE frame),
// prompt_accepted | prompt_result, permission_request, status_waiting, vote, turn_end, status_after, revote, done | error.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const USAGE =
  "usage: node sdk-client-flow.mjs <daemonUrl> [--sdk <dir>] [--prompt <text>] [--answer <text>] [--cwd <path>] [--mode blocking|nonblocking] [--vote answer|cancel] [--timeout-ms <n>]";

function parseArgs(argv, env) {
  const opts = {
    url: undefined,
    sdk: env.QWEN_REF_SDK || "/tmp/qwen-ref/node_modules/@qwen-code/sdk",
    prompt: "ASK which database",
    answer: "SQLite",
    cwd: undefined,
    mode: "blocking",
    vote: "answer",
    timeoutMs: 60_000,
  };
  const flags = new Set(["--sdk", "--prompt", "--answer", "--cwd", "--mode", "--vote", "--timeout-ms"]);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (flags.has(a)) {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      if (a === "--sdk") opts.sdk = v;
      else if (a === "--prompt") opts.prompt = v;
      else if (a === "--answer") opts.answer = v;
      else if (a === "--cwd") opts.cwd = v;
      else if (a === "--mode") opts.mode = v;
      else if (a === "--vote") opts.vote = v;
      else opts.timeoutMs = Number(v);
    } else if (a.startsWith("--")) {
      throw new Error(`unknown flag ${a}`);
    } else if (opts.url === undefined) {
      opts.url = a;
    } else {
      throw new Error(`unexpected argument ${a}`);
    }
  }
  if (!opts.url) throw new Error("missing <daemonUrl>");
  if (!["blocking", "nonblocking"].includes(opts.mode)) throw new Error(`bad --mode ${opts.mode}`);
  if (!["answer", "cancel"].includes(opts.vote)) throw new Error(`bad --vote ${opts.vote}`);
  if (!Number.isInteger(opts.timeoutMs) || opts.timeoutMs <= 0) throw new Error("bad --timeout-ms");
  return opts;
}

const out = (step, fields = {}) => process.stdout.write(`${JSON.stringify({ step, ...fields })}\n`);

function errorFields(err) {
  // DaemonHttpError carries status + parsed body; keep them, they are what a wire check needs.
  return {
    name: err?.name,
    message: err instanceof Error ? err.message : String(err),
    ...(err && typeof err === "object" && "status" in err ? { status: err.status } : {}),
    ...(err && typeof err === "object" && "body" in err ? { body: err.body } : {}),
  };
}

/** Collects SSE events and lets the flow wait for the first one matching a predicate. */
function createEventLog() {
  const events = [];
  const waiters = [];
  return {
    events,
    push(ev) {
      events.push(ev);
      for (const w of [...waiters]) {
        if (w.match(ev)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(ev);
        }
      }
    },
    waitFor(match) {
      const seen = events.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
  };
}

async function main() {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2), process.env);
  } catch (err) {
    process.stderr.write(`${err.message}\n${USAGE}\n`);
    process.exit(2);
  }
  const entry = join(opts.sdk, "dist", "index.mjs");
  if (!existsSync(entry)) {
    out("error", { message: `@qwen-code/sdk not found at ${entry} (run e2e/interop/setup-reference.sh)` });
    process.exit(1);
  }
  const { DaemonClient } = await import(pathToFileURL(entry).href);

  const timer = setTimeout(() => {
    out("error", { message: `timed out after ${opts.timeoutMs} ms` });
    process.exit(1);
  }, opts.timeoutMs);

  const client = new DaemonClient({ baseUrl: opts.url, fetchTimeoutMs: 30_000 });
  const stop = new AbortController();
  try {
    out("health", { result: await client.health() });
    const caps = await client.capabilities();
    out("capabilities", {
      v: caps.v,
      mode: caps.mode,
      workspaceCwd: caps.workspaceCwd,
      policy: caps.policy,
      hasSessionPermissionVote:
        Array.isArray(caps.features) && caps.features.includes("session_permission_vote"),
    });

    const session = await client.createOrAttachSession(opts.cwd ? { workspaceCwd: opts.cwd } : {});
    out("session", { session });
    const { sessionId, clientId } = session;

    const log = createEventLog();
    const subscribed = new Promise((resolve, reject) => {
      (async () => {
        for await (const ev of client.subscribeEvents(sessionId, {
          clientId,
          signal: stop.signal,
          onSseStreamAccepted: (streamId) => {
            out("subscribed", { streamId: streamId ?? null });
            resolve();
          },
          onEpoch: (epoch) => out("epoch", { epoch }),
        })) {
          out("event", { event: ev });
          log.push(ev);
        }
      })().catch((err) => {
        if (!stop.signal.aborted) {
          out("error", { where: "subscribeEvents", ...errorFields(err) });
          reject(err);
        }
      });
    });
    await subscribed;

    const req = { prompt: [{ type: "text", text: opts.prompt }] };
    let promptId;
    let blockingResult;
    if (opts.mode === "nonblocking") {
      const accepted = await client.promptNonBlocking(sessionId, req, undefined, clientId);
      out("prompt_accepted", { accepted });
      promptId = accepted.promptId;
    } else {
      // prompt() resolves only at turn_complete, which needs our vote first: keep it pending.
      blockingResult = client.prompt(sessionId, req, undefined, clientId).then(
        (result) => ({ result }),
        (err) => ({ error: errorFields(err) }),
      );
    }

    const permission = await log.waitFor(
      (ev) => ev.type === "permission_request" && (promptId === undefined || ev.promptId === promptId),
    );
    promptId ??= permission.promptId;
    const { requestId, toolCall, options } = permission.data;
    out("permission_request", {
      requestId,
      promptId,
      interactionKind: toolCall?._meta?.qwenInteractionKind ?? null,
      title: toolCall?.title ?? null,
      options,
    });

    out("status_waiting", { status: await client.sessionStatus(sessionId, clientId) });

    const allow = options.find((o) => o.kind === "allow_once")?.optionId ?? "proceed_once";
    const vote =
      opts.vote === "cancel"
        ? { outcome: { outcome: "cancelled" } }
        : { outcome: { outcome: "selected", optionId: allow }, answers: { 0: opts.answer } };
    const accepted = await client.respondToSessionPermission(sessionId, requestId, vote, clientId);
    out("vote", { requestId, body: vote, accepted });

    const end = await log.waitFor(
      (ev) => (ev.type === "turn_complete" || ev.type === "turn_error") && ev.data?.promptId === promptId,
    );
    out("turn_end", { type: end.type, data: end.data });
    if (blockingResult) out("prompt_result", await blockingResult);

    out("status_after", { status: await client.sessionStatus(sessionId, clientId) });
    // A vote on a resolved request must be a 404, which the SDK reports as `false`.
    const again = await client.respondToSessionPermission(sessionId, requestId, vote, clientId);
    out("revote", { requestId, accepted: again });

    const ok = accepted === true && again === false && end.type === "turn_complete";
    out("done", { ok, sessionId, clientId, promptId, requestId, eventCount: log.events.length });
    process.exitCode = ok ? 0 : 1;
  } catch (err) {
    out("error", errorFields(err));
    process.exitCode = 1;
  } finally {
    stop.abort();
    clearTimeout(timer);
    client.dispose?.();
  }
}

await main();
