// The prespawned child's `initialize`, sent by the boot side right after the spawn, while the daemon's own
// modules are still loading: after a restart, the daemon would otherwise only send it once those have
// loaded, and then wait for the child to read, handle and answer it before the session's load could go.
//
// Transparent to the connection: the channel returned here writes the request at once (with an id of its
// own, a string, which the connection's numeric ids can never be) and holds the child's answer back. When
// the connection then writes its own `initialize` with the same params, that request is not forwarded (the
// child has already handled one); the held answer is passed on with the connection's id instead, so the SDK
// reads, checks and reports it exactly as it would the child's answer to its own request: a result, an
// error response, a malformed one, or none at all because the child died (its output simply ends). Bytes
// the child wrote before its answer pass through unchanged, in order. Globals only (no imports but types and
// the request's params): this is part of `@qwen-daemon/daemon/boot`.
import type { ChildChannel } from "./channel.js";
import { INITIALIZE_METHOD, INITIALIZE_PARAMS } from "./initialize-request.js";

/** The JSON-RPC id of the early `initialize`. */
export const PRE_INITIALIZE_ID = "qwen-daemon:pre-initialize";

type Answer = { message: Record<string, unknown>; rest: Uint8Array };
/** What the connection's own `initialize` turned out to be: answered from the held answer, or forwarded. */
type Claim = { id: unknown } | undefined;

const NEWLINE = 0x0a;

export function preInitialize(channel: ChildChannel, params: object = INITIALIZE_PARAMS): ChildChannel {
  const encoder = new TextEncoder();
  const writer = channel.input.getWriter();
  const request = { jsonrpc: "2.0", id: PRE_INITIALIZE_ID, method: INITIALIZE_METHOD, params };
  // False when the child's stdin is already broken (it died): then nothing is held back, and the
  // connection's own request goes to the child as it would without this (and fails the same way).
  const requestWritten = writer.write(encoder.encode(`${JSON.stringify(request)}\n`)).then(
    () => true,
    () => false,
  );
  let claim!: (claim: Claim) => void;
  const claimed = new Promise<Claim>((resolve) => {
    claim = resolve;
  });

  const reader = channel.output.getReader();
  let answer!: Promise<Answer | "end" | "failed">;
  let released = false;
  const output = new ReadableStream<Uint8Array>({
    start(controller) {
      // Reads now, not when the connection pulls: the child's answer arrives while the daemon loads.
      answer = scanForAnswer(reader, (bytes) => controller.enqueue(bytes)).catch((error: unknown) => {
        controller.error(error);
        return "failed" as const;
      });
    },
    async pull(controller) {
      if (!released) {
        const found = await answer;
        if (found === "failed") return;
        if (found === "end") return controller.close();
        released = true;
        const connection = await claimed;
        if (connection !== undefined) {
          controller.enqueue(encoder.encode(`${JSON.stringify({ ...found.message, id: connection.id })}\n`));
        }
        if (found.rest.byteLength > 0) return controller.enqueue(found.rest);
      }
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });

  let inspecting = true; // until the connection's own initialize has gone by
  const input = new WritableStream<Uint8Array>({
    async write(chunk) {
      if (inspecting) {
        const message = initializeRequestIn(chunk);
        if (message !== undefined) {
          inspecting = false;
          const same = JSON.stringify(message.params) === JSON.stringify(params);
          if (same && (await requestWritten)) return claim({ id: message.id });
          claim(undefined); // a different initialize: the child answers that one; the early answer is dropped
        }
      }
      await writer.write(chunk);
    },
    close() {
      return writer.close();
    },
    abort(reason) {
      return writer.abort(reason);
    },
  });

  return {
    pid: channel.pid,
    input,
    output,
    stderr: channel.stderr,
    exited: channel.exited,
    kill: (signal) => channel.kill(signal),
  };
}

/**
 * Reads `reader` line by line until the child's answer to the early request, passing every other byte on
 * (`passThrough`, in order). Resolves with that answer and the bytes after it, or "end" at end of stream.
 */
async function scanForAnswer(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  passThrough: (bytes: Uint8Array) => void,
): Promise<Answer | "end"> {
  let partial = new Uint8Array(0);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) {
      if (partial.byteLength > 0) passThrough(partial);
      return "end";
    }
    const bytes = partial.byteLength === 0 ? value : concat(partial, value);
    let start = 0;
    for (let nl = bytes.indexOf(NEWLINE); nl !== -1; nl = bytes.indexOf(NEWLINE, start)) {
      const line = bytes.subarray(start, nl + 1);
      start = nl + 1;
      const message = answerIn(line);
      if (message !== undefined) return { message, rest: bytes.slice(start) };
      passThrough(line.slice());
    }
    partial = bytes.slice(start);
  }
}

/** The line as a response to the early request (routed the way the SDK routes one: an id and no method). */
function answerIn(line: Uint8Array): Record<string, unknown> | undefined {
  const message = parseLine(line);
  if (message === undefined || "method" in message || message.id !== PRE_INITIALIZE_ID) return undefined;
  return message;
}

/** The chunk (one message as the SDK writes it) as an `initialize` request, if it is one. */
function initializeRequestIn(chunk: Uint8Array): { id: unknown; params: unknown } | undefined {
  const message = parseLine(chunk);
  if (message === undefined || message.method !== INITIALIZE_METHOD || !("id" in message)) return undefined;
  return { id: message.id, params: message.params };
}

function parseLine(bytes: Uint8Array): Record<string, unknown> | undefined {
  const text = new TextDecoder().decode(bytes).trim();
  if (text === "") return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a, 0);
  out.set(b, a.byteLength);
  return out;
}
