// The daemon's socket, bound before the heavy modules (Hono app, ACP SDK, zod schemas, core) have loaded:
// `qwen serve` answers /health within a few milliseconds of starting. Requests the early listener cannot
// answer alone (see early-health) wait, in arrival order, and are handed to the app once it is ready;
// none is refused because it came early.
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from "node:http";
import { answersEarly, EARLY_HEALTH_BODY } from "./early-health.js";

export type Bind = { port: number; hostname: string };

export type EarlyServer = {
  readonly server: Server;
  /** What was asked for (port 0 = ephemeral; the actual port is in `server.address()`). */
  readonly bind: Bind;
  /** Hands the waiting requests, then every later one, to `listener`. Call once. */
  ready(listener: RequestListener): void;
  /** Startup failed: waiting requests get 503 and the socket closes. Idempotent. */
  close(): Promise<void>;
};

/** How often Node looks for connections past their header or request timeout. */
export const CONNECTIONS_CHECK_MS = 250;

const STARTUP_FAILED_BODY = JSON.stringify({ error: "qwen serve failed to start" });

export function listenEarly(bind: Bind): Promise<EarlyServer> {
  const waiting = new Set<[IncomingMessage, ServerResponse]>();
  const early: RequestListener = (req, res) => {
    if (answersEarly(req, bind.hostname)) {
      res.writeHead(200, {
        "Content-Type": "application/json",
        "Content-Length": Buffer.byteLength(EARLY_HEALTH_BODY),
      });
      res.end(EARLY_HEALTH_BODY);
      return;
    }
    const entry: [IncomingMessage, ServerResponse] = [req, res];
    waiting.add(entry);
    // A client that gives up while waiting is not handed to the app.
    res.once("close", () => waiting.delete(entry));
  };
  // Header and request timeouts are enforced when Node checks connections, every 30 s by default: a slow
  // client would keep its connection up to 30 s past its timeout. The daemon sets the timeouts themselves.
  const server = createServer({ connectionsCheckingInterval: CONNECTIONS_CHECK_MS }, early);
  let closing: Promise<void> | undefined;
  const handle: EarlyServer = {
    server,
    bind,
    ready(listener) {
      server.off("request", early);
      server.on("request", listener);
      const queued = [...waiting];
      waiting.clear();
      for (const [req, res] of queued) listener(req, res);
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.off("request", early);
        for (const [, res] of waiting) {
          res.writeHead(503, {
            "Content-Type": "application/json",
            "Content-Length": Buffer.byteLength(STARTUP_FAILED_BODY),
            Connection: "close",
          });
          res.end(STARTUP_FAILED_BODY);
        }
        waiting.clear();
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      return closing;
    },
  };
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => {
      server.off("listening", onListening);
      reject(
        new Error(`qwen serve: cannot listen on ${bind.hostname}:${bind.port}: ${error.message}`, {
          cause: error,
        }),
      );
    };
    const onListening = () => {
      server.off("error", onError);
      resolve(handle);
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(bind.port, bind.hostname);
  });
}
