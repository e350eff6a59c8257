import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { sampleNotifyEvent } from "../testing/notify-event.js";
import { commandSender, webhookSender, webhookSignature } from "./senders.js";

const event = sampleNotifyEvent();

const servers: { close(): void }[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

async function receiver(status: (n: number) => number) {
  const got: { headers: IncomingMessage["headers"]; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      got.push({ headers: req.headers, body });
      res.statusCode = status(got.length);
      res.end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, got };
}

describe("commandSender", () => {
  it("runs the command with the event's JSON on stdin and handy variables", async () => {
    const script =
      'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const e=JSON.parse(s);' +
      'if(e.id!=="s1:call_1"||process.env.QWEN_NOTIFY_TITLE!=="Which colour?"||process.env.QWEN_NOTIFY_URL!==e.url)process.exit(3)})';
    await expect(commandSender([process.execPath, "-e", script]).send(event)).resolves.toBeUndefined();
  });

  it("rejects with the reason: a non-zero exit with its stderr, a missing program, a hang", async () => {
    await expect(
      commandSender([process.execPath, "-e", 'console.error("no display");process.exit(2)']).send(event),
    ).rejects.toThrow("the notify command exited with 2: no display");
    await expect(commandSender(["/nonexistent/notify-tool"]).send(event)).rejects.toThrow(/could not start/);
    const started = Date.now();
    await expect(
      commandSender([process.execPath, "-e", "setInterval(()=>{},1000)"], { timeoutMs: 300 }).send(event),
    ).rejects.toThrow("did not finish within 300 ms");
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("does not mind a command that never reads stdin", async () => {
    await expect(commandSender(["true"]).send(event)).resolves.toBeUndefined();
  });
});

describe("webhookSender", () => {
  it("POSTs the JSON with the id and, given a secret, an HMAC signature over timestamp and body", async () => {
    const hook = await receiver(() => 204);
    await webhookSender(hook.url, { secret: "s3cret", now: () => 1_700_000_000_000 }).send(event);
    const [req] = hook.got;
    expect(JSON.parse(req?.body ?? "")).toEqual(event);
    expect(req?.headers["content-type"]).toBe("application/json");
    expect(req?.headers["x-qwen-notification-id"]).toBe("s1:call_1");
    expect(req?.headers["x-qwen-timestamp"]).toBe("1700000000");
    expect(req?.headers["x-qwen-signature"]).toBe(webhookSignature("s3cret", "1700000000", req?.body ?? ""));
    expect(webhookSignature("s3cret", "1700000000", req?.body ?? "")).toMatch(/^sha256=[0-9a-f]{64}$/);
    const unsigned = await receiver(() => 200);
    await webhookSender(unsigned.url).send(event);
    expect(unsigned.got[0]?.headers["x-qwen-signature"]).toBeUndefined();
  });

  it("rejects on a non-2xx answer, an unreachable receiver and a slow one", async () => {
    const failing = await receiver(() => 503);
    await expect(webhookSender(failing.url).send(event)).rejects.toThrow("the webhook answered 503");
    await expect(webhookSender("http://127.0.0.1:9/hook").send(event)).rejects.toThrow(
      /could not be reached/,
    );
    const slow = createServer(() => undefined);
    await new Promise<void>((r) => slow.listen(0, "127.0.0.1", () => r()));
    servers.push({
      close: () => {
        slow.closeAllConnections();
        slow.close();
      },
    });
    const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/`;
    await expect(webhookSender(url, { timeoutMs: 200 }).send(event)).rejects.toThrow(/could not be reached/);
  });
});
