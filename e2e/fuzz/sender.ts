// Sends one HostileRequest as it is: node:http for requests (paths verbatim, no URL normalising, bodies cut
// off on purpose), a bare TCP socket for bytes no HTTP client would write. Reports every status it saw.
import { Agent, request } from "node:http";
import { connect } from "node:net";
import type { HostileRequest } from "./hostile-requests.js";

export type Outcome = {
  /** HTTP statuses received (a raw exchange may hold several, or none when the daemon just closed). */
  statuses: number[];
  /** The body of a 5xx, for the failure message. */
  errorBody?: string;
};

const watched = new WeakSet<object>();

/** How long a raw exchange that gets no answer (a request the daemon is still waiting to complete) is held. */
const RAW_WAIT_MS = 300;

export class HostileSender {
  readonly #agent: Agent;
  readonly #port: number;

  constructor(port: number, sockets: number) {
    this.#port = port;
    this.#agent = new Agent({ keepAlive: true, maxSockets: sockets });
  }

  send(r: HostileRequest): Promise<Outcome> {
    return r.kind === "raw" ? this.#raw(r.bytes) : this.#http(r);
  }

  close(): void {
    this.#agent.destroy();
  }

  #http(r: Extract<HostileRequest, { kind: "http" }>): Promise<Outcome> {
    return new Promise((resolve) => {
      const body = r.body === undefined ? undefined : Buffer.from(r.body);
      const headers: Record<string, string | number> = { ...r.headers, host: `127.0.0.1:${this.#port}` };
      if (body !== undefined) headers["content-length"] = body.length;
      let settled = false;
      const done = (outcome: Outcome) => {
        if (settled) return;
        settled = true;
        resolve(outcome);
      };
      // A cut-off upload, an SSE hang-up and a large body (often answered before it is sent) leave the socket
      // unusable: they get a socket of their own.
      const own = r.abortAfter !== undefined || r.stream === true || (body?.length ?? 0) > 64 * 1024;
      const req = request(
        {
          host: "127.0.0.1",
          port: this.#port,
          method: r.method,
          path: r.path,
          headers,
          agent: own ? false : this.#agent,
        },
        (res) => {
          const status = res.statusCode ?? 0;
          if (r.stream === true && status === 200) {
            res.once("data", () => {
              req.destroy();
              done({ statuses: [status] });
            });
            res.once("end", () => done({ statuses: [status] }));
            return;
          }
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => {
            if (status >= 500) chunks.push(chunk);
          });
          res.on("end", () =>
            done({
              statuses: [status],
              ...(status >= 500 ? { errorBody: Buffer.concat(chunks).toString("utf8").slice(0, 500) } : {}),
            }),
          );
          res.on("error", () => done({ statuses: [status] }));
        },
      );
      req.on("error", () => done({ statuses: [] }));
      // A daemon that answers before the whole body is written (413, a refused client) closes the socket
      // under the rest of it: the late EPIPE belongs to this exchange, not to whoever uses the socket next.
      req.on("socket", (socket) => {
        if (watched.has(socket)) return;
        watched.add(socket);
        socket.on("error", () => {});
      });
      if (body === undefined) {
        req.end();
      } else if (r.abortAfter !== undefined) {
        req.write(body.subarray(0, r.abortAfter), () =>
          setTimeout(() => {
            req.destroy();
            done({ statuses: [] });
          }, 5),
        );
      } else {
        req.end(body);
      }
    });
  }

  #raw(bytes: string): Promise<Outcome> {
    return new Promise((resolve) => {
      const socket = connect(this.#port, "127.0.0.1");
      let text = "";
      const finish = () => {
        clearTimeout(timer);
        socket.destroy();
        const statuses = [...text.matchAll(/HTTP\/1\.[01] (\d{3})/g)].map((m) => Number(m[1]));
        resolve({ statuses });
      };
      const timer = setTimeout(finish, RAW_WAIT_MS);
      socket.setEncoding("latin1");
      socket.on("data", (chunk: string) => {
        text += chunk;
      });
      socket.on("error", finish);
      socket.on("close", finish);
      socket.on("connect", () => socket.write(Buffer.from(bytes, "latin1")));
    });
  }
}
