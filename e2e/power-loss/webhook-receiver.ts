// A notification receiver on loopback for the power-loss story: it notes every request with the story's
// op-log position at its arrival (`at`), and answers each with the status `statusFor` picks.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export type Received = { body: Record<string, unknown>; at: number };

export interface WebhookReceiver {
  url: string;
  got: Received[];
  /** Waits (bounded) until a request matches; throws with what arrived otherwise. */
  until(match: (r: Received) => boolean, what: string, ms?: number): Promise<Received>;
  close(): void;
}

export async function webhookReceiver(
  statusFor: (body: Record<string, unknown>, n: number) => number = () => 200,
  position: () => number = () => 0,
): Promise<WebhookReceiver> {
  const got: Received[] = [];
  const server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk) => {
      text += chunk;
    });
    req.on("end", () => {
      const body = JSON.parse(text) as Record<string, unknown>;
      got.push({ body, at: position() });
      res.statusCode = statusFor(body, got.length);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    got,
    async until(match, what, ms = 20_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const found = got.find(match);
        if (found) return found;
        if (Date.now() > deadline) {
          throw new Error(
            `receiver: no ${what} after ${ms} ms; got ${JSON.stringify(got.map((r) => r.body))}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}
