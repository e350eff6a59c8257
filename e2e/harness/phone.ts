// A loopback "phone" for answer-link tests: a webhook receiver that keeps every notification the daemon sends,
// and a reverse proxy that serves the daemon under a path (`/qwen/`), as a public address would, and can be
// pointed at the next daemon after a restart. Both close with the test (`close`).
import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type Notification = {
  id: string;
  type: string;
  toolCallId?: string;
  requestId?: string;
  restored: boolean;
  actions?: { label: string; url: string; method: "POST" | "GET"; answer?: unknown }[];
  [key: string]: unknown;
};

export type Tap = { status: number; html: string };

async function listen(server: Server): Promise<number> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return (server.address() as AddressInfo).port;
}

export class Phone {
  readonly got: Notification[] = [];
  readonly #servers: Server[] = [];
  #waiters: (() => void)[] = [];
  /** Where the proxy sends requests (the current daemon's base URL). */
  target = "";
  hookUrl = "";
  /** The proxy's public base, with its path: `http://127.0.0.1:<port>/qwen`. */
  publicUrl = "";

  static async start(): Promise<Phone> {
    const phone = new Phone();
    const hook = createServer((req, res) => {
      let text = "";
      req.on("data", (c) => {
        text += c;
      });
      req.on("end", () => {
        phone.got.push(JSON.parse(text) as Notification);
        for (const w of phone.#waiters.splice(0)) w();
        res.end();
      });
    });
    const proxy = createServer((req, res) => phone.#forward(req, res));
    phone.#servers.push(hook, proxy);
    phone.hookUrl = `http://127.0.0.1:${await listen(hook)}/hook`;
    phone.publicUrl = `http://127.0.0.1:${await listen(proxy)}/qwen`;
    return phone;
  }

  /** The first notification that matches, once it arrived (bounded). */
  async until(match: (n: Notification) => boolean, what: string, ms = 30_000): Promise<Notification> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.got.find(match);
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(`phone: no ${what} after ${ms} ms (got ${JSON.stringify(this.got)})`);
      await new Promise<void>((r) => {
        this.#waiters.push(r);
        setTimeout(r, 200);
      });
    }
  }

  /** Follows an action: POST (no body, no Authorization) or GET, as a push service's button would. */
  async tap(url: string, method: "POST" | "GET" = "POST", body?: string): Promise<Tap> {
    const res = await fetch(url, {
      method,
      redirect: "manual",
      ...(body !== undefined
        ? { body, headers: { "content-type": "application/x-www-form-urlencoded" } }
        : {}),
    });
    return { status: res.status, html: await res.text() };
  }

  #forward(req: IncomingMessage, res: import("node:http").ServerResponse): void {
    const path = (req.url ?? "/").replace(/^\/qwen(?=\/|$)/, "") || "/";
    const target = new URL(this.target);
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path,
        headers: { ...req.headers, host: target.host },
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on("error", () => {
      res.statusCode = 502;
      res.end("proxy: daemon unreachable");
    });
    req.pipe(upstream);
  }

  close(): void {
    for (const s of this.#servers) {
      s.closeAllConnections();
      s.close();
    }
  }
}
