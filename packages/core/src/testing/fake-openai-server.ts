// A real HTTP server speaking the OpenAI Chat Completions wire format, scripted by tests. In-process tests
// and e2e tests that spawn children (OPENAI_BASE_URL=server.url) both talk to it over a socket.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { OpenAIChatRequest } from "../model/openai-wire.js";
import { checkToolCallPairing } from "./chat-request-rules.js";
import {
  type RenderContext,
  renderChunks,
  renderCompletion,
  renderTextChunks,
  sseFrame,
} from "./fake-openai-render.js";
import { type FakeReply, reply as replies } from "./fake-openai-replies.js";

export type FakeHandler = (request: OpenAIChatRequest, index: number) => FakeReply | Promise<FakeReply>;

export interface FakeServerScript {
  /** Served first, in order, one per request. */
  replies?: FakeReply[];
  /** Decides once the queue is empty; `index` is the request's 0-based position in `requests`. */
  handler?: FakeHandler;
  /** Answer 400 like a real server when tool messages do not pair with tool calls (default true). */
  strict?: boolean;
  /** When set, requests must carry `Authorization: Bearer <apiKey>` (else 401). */
  apiKey?: string;
  /** Ids for `GET /v1/models` (default `["fake-model"]`). */
  models?: string[];
}

export type FakeScript = FakeReply[] | FakeHandler | FakeServerScript;

export interface FakeRejection {
  /** Index in `requests`, or -1 when the body did not parse as a chat request. */
  index: number;
  status: number;
  reason: string;
}

export interface FakeOpenAIServer {
  /** Base URL ending in `/v1`, ready for OPENAI_BASE_URL. */
  readonly url: string;
  /** Every well-formed chat completion request body, in arrival order. */
  readonly requests: readonly OpenAIChatRequest[];
  /** Headers of the same requests, index for index. */
  readonly requestHeaders: readonly IncomingHttpHeaders[];
  /** Requests answered with an error by the server itself (bad JSON, pairing rules, auth). */
  readonly rejected: readonly FakeRejection[];
  /** Exceptions thrown by the handler (each answered 500). */
  readonly errors: readonly Error[];
  /** Responses the client walked away from before they were complete. */
  readonly clientAborts: number;
  enqueue(...replies: FakeReply[]): void;
  setHandler(handler: FakeHandler | undefined): void;
  /** Resolves with the n-th request (1-based) once n requests have arrived; rejects after `timeoutMs`. */
  waitForRequest(n: number, timeoutMs?: number): Promise<OpenAIChatRequest>;
  /** Resolves once `clientAborts` reaches n. */
  waitForClientAbort(n?: number, timeoutMs?: number): Promise<void>;
  /** Drops open connections (stalled streams included) and stops listening. Idempotent. */
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 20 * 1024 * 1024;
/** Responses a `disconnect` reply cut on purpose: not client aborts. */
const droppedByServer = new WeakSet<ServerResponse>();

export async function startFakeOpenAIServer(script: FakeScript = {}): Promise<FakeOpenAIServer> {
  const options: FakeServerScript = Array.isArray(script)
    ? { replies: script }
    : typeof script === "function"
      ? { handler: script }
      : script;
  const queue = [...(options.replies ?? [])];
  let handler = options.handler;
  const strict = options.strict ?? true;
  const requests: OpenAIChatRequest[] = [];
  const requestHeaders: IncomingHttpHeaders[] = [];
  const rejected: FakeRejection[] = [];
  const errors: Error[] = [];
  let clientAborts = 0;
  let closing = false;
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const check of [...waiters]) check();
  };

  const waitFor = <T>(ready: () => T | undefined, what: string, timeoutMs: number): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const check = () => {
        const value = ready();
        if (value === undefined) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(value);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`fake OpenAI server: timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      timer.unref();
      waiters.add(check);
      check();
    });

  const sendJson = (
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  };
  const reject = (res: ServerResponse, index: number, status: number, reason: string) => {
    rejected.push({ index, status, reason });
    sendJson(res, status, { error: { message: reason, type: "invalid_request_error", code: null } });
    notify();
  };

  const chooseReply = async (request: OpenAIChatRequest, index: number): Promise<FakeReply> => {
    const next = queue.shift();
    if (next) return next;
    if (handler) return handler(request, index);
    return replies.text(`fake-openai-server: no reply scripted for request #${index}`);
  };

  const handleChat = async (req: IncomingMessage, res: ServerResponse) => {
    const raw = await readBody(req);
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      reject(res, -1, 400, "We could not parse the JSON body of your request.");
      return;
    }
    const parsed = OpenAIChatRequest.safeParse(json);
    if (!parsed.success) {
      reject(res, -1, 400, `Invalid chat completion request: ${parsed.error.message}`);
      return;
    }
    const request = parsed.data;
    const index = requests.push(request) - 1;
    requestHeaders.push(req.headers);
    notify();
    if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      reject(res, index, 401, "Incorrect API key provided (fake server).");
      return;
    }
    const rule = strict ? checkToolCallPairing(request.messages) : undefined;
    if (rule) {
      reject(res, index, 400, rule);
      return;
    }
    let chosen: FakeReply;
    try {
      chosen = await chooseReply(request, index);
    } catch (caught) {
      const error = caught instanceof Error ? caught : new Error(String(caught));
      errors.push(error);
      sendJson(res, 500, {
        error: { message: `fake server handler threw: ${error.message}`, type: "server_error" },
      });
      notify();
      return;
    }
    const ctx: RenderContext = {
      index,
      model: request.model,
      includeUsage: request.stream_options?.include_usage === true,
    };
    await play(chosen, res, ctx, request.stream === true);
  };

  const server = createServer((req, res) => {
    req.socket.setNoDelay(true);
    res.on("close", () => {
      if (!res.writableFinished && !closing && !droppedByServer.has(res)) {
        clientAborts++;
        notify();
      }
    });
    const path = (req.url ?? "/").split("?")[0]!.replace(/\/+$/, "");
    const route = path.replace(/^\/v1/, "");
    if (req.method === "POST" && route === "/chat/completions") {
      handleChat(req, res).catch((caught: unknown) => {
        // The socket failed under us (client gone mid-body); nothing left to answer, but keep the trace.
        errors.push(caught instanceof Error ? caught : new Error(String(caught)));
        if (!res.headersSent)
          sendJson(res, 500, { error: { message: String(caught), type: "server_error" } });
        else res.destroy();
      });
      return;
    }
    if (req.method === "GET" && route === "/models") {
      const data = (options.models ?? ["fake-model"]).map((id) => ({
        id,
        object: "model",
        created: 0,
        owned_by: "fake",
      }));
      sendJson(res, 200, { object: "list", data });
      return;
    }
    sendJson(res, 404, {
      error: { message: `fake server: no route ${req.method} ${path}`, type: "not_found" },
    });
  });

  await new Promise<void>((resolve, rejectListen) => {
    server.once("error", rejectListen);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", rejectListen);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  let closed: Promise<void> | undefined;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    requestHeaders,
    rejected,
    errors,
    get clientAborts() {
      return clientAborts;
    },
    enqueue: (...more) => {
      queue.push(...more);
    },
    setHandler: (next) => {
      handler = next;
    },
    waitForRequest: (n, timeoutMs = 10_000) =>
      waitFor(() => requests[n - 1], `request #${n} (have ${requests.length})`, timeoutMs),
    waitForClientAbort: async (n = 1, timeoutMs = 10_000) => {
      await waitFor(() => (clientAborts >= n ? true : undefined), `${n} client abort(s)`, timeoutMs);
    },
    close: () => {
      closed ??= new Promise<void>((resolve, rejectClose) => {
        closing = true;
        server.close((error) => (error ? rejectClose(error) : resolve()));
        server.closeAllConnections();
      });
      return closed;
    },
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.destroy(new Error(`request body over ${MAX_BODY_BYTES} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** Resolves true after `ms`, or false as soon as the response is closed (client gone). */
function pause(ms: number, res: ServerResponse): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onClose = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      res.off("close", onClose);
      resolve(true);
    }, ms);
    res.once("close", onClose);
  });
}

async function writeFrames(
  res: ServerResponse,
  frames: unknown[],
  delayMs: number | undefined,
): Promise<boolean> {
  for (const [i, frame] of frames.entries()) {
    if (res.destroyed) return false;
    if (i > 0 && delayMs && !(await pause(delayMs, res))) return false;
    res.write(sseFrame(frame));
  }
  return !res.destroyed;
}

function startStream(res: ServerResponse): void {
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  res.flushHeaders();
}

async function play(
  reply: FakeReply,
  res: ServerResponse,
  ctx: RenderContext,
  stream: boolean,
): Promise<void> {
  switch (reply.type) {
    case "delay":
      if (await pause(reply.ms, res)) await play(reply.then, res, ctx, stream);
      return;
    case "error":
      res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
      res.end(typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body));
      return;
    case "message":
      if (!stream) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(renderCompletion(reply, ctx)));
        return;
      }
      startStream(res);
      if (await writeFrames(res, renderChunks(reply, ctx), reply.chunkDelayMs)) res.end(sseFrame("[DONE]"));
      return;
    case "malformed":
      if (!stream) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(reply.raw);
        return;
      }
      startStream(res);
      if (await writeFrames(res, [...renderTextChunks(reply.text, ctx), reply.raw], undefined)) {
        res.end(sseFrame("[DONE]"));
      }
      return;
    case "disconnect":
      if (stream) {
        startStream(res);
        await writeFrames(res, renderTextChunks(reply.text, ctx), undefined);
      }
      // Let the frames leave before the reset, so the client sees the text and then the break.
      await pause(20, res);
      droppedByServer.add(res);
      res.socket?.destroy();
      return;
    case "stall":
      if (stream) {
        startStream(res);
        await writeFrames(res, renderTextChunks(reply.text, ctx), undefined);
      }
      // Never ends: the client's abort (or close()) closes the socket.
      return;
  }
}
