// The fuzz lane over the answer links (`/a/*`) against a real `qwen serve` while a question waits: seeded
// malformed, mutated, foreign, oversized and odd-method requests from other loopback addresses (127.0.2.x, so
// their failures are rate-limited apart from the phone's), then concurrent taps on every action of the
// question (exactly one wins), then replays of every link (all refused with the first answer). Never a 5xx,
// and nothing the hostile requests did changes the question. QWEN_FUZZ_SEED picks the run,
// QWEN_FUZZ_LINK_REQUESTS its size, QWEN_FUZZ_LOG=<file> writes every request and its status there.
import { randomBytes } from "node:crypto";
import { appendFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import {
  askUserQuestionCall,
  DEFAULT_QUESTION,
  lastMessage,
  messageText,
  reply,
} from "@qwen-daemon/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { signCapability } from "../packages/daemon/src/links/capability.js";
import { Prng } from "./fuzz/prng.js";
import { useE2eWorld } from "./harness/e2e-world.js";
import { Phone } from "./harness/phone.js";
import { askQuestion } from "./harness/question-scenario.js";
import { getStatus } from "./harness/session-api.js";

const SEED = Number(process.env.QWEN_FUZZ_SEED ?? 0x11a5);
const HOSTILE = Number(process.env.QWEN_FUZZ_LINK_REQUESTS ?? 2000);
const RACERS = 12;

const world = useE2eWorld(() => (request) => {
  const last = lastMessage(request);
  if (last?.role === "tool") return reply.text(`Noted: ${messageText(last)}`);
  return askUserQuestionCall([DEFAULT_QUESTION], { text: "One question." });
});
const phones: Phone[] = [];
afterEach(() => {
  for (const p of phones.splice(0)) p.close();
});

type Raw = { status: number; body: string };

/** One request with a raw path, from `localAddress`; a reset or refusal by the server counts as status 0. */
function send(
  base: string,
  method: string,
  path: string,
  localAddress: string,
  body?: Buffer,
  type?: string,
): Promise<Raw> {
  const url = new URL(base);
  return new Promise((resolve) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        localAddress,
        headers: {
          ...(body !== undefined ? { "content-length": String(body.length) } : {}),
          ...(type !== undefined ? { "content-type": type } : {}),
        },
      },
      (res) => {
        let text = "";
        res.on("data", (c) => {
          text += c;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on("error", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", () => resolve({ status: 0, body: "" }));
    req.end(body);
  });
}

function hostilePath(rng: Prng, valid: readonly string[], key: Buffer): string {
  const token = rng.pick(valid);
  const [v, payload, sig] = token.split(".") as [string, string, string];
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  const enc = (s: string) => encodeURIComponent(s);
  const kind = rng.int(0, 13);
  switch (kind) {
    case 0:
      return `/a/${enc(rng.string(rng.int(0, 80), "abcXYZ019-_.~%/\\:?#@!$&'()*+,;= "))}`;
    case 1:
      return `/a/${rng.string(rng.int(4097, 12_000), "abcdefABCDEF0123456789-_.")}`;
    case 2: {
      const i = rng.int(0, token.length - 1);
      const c = token[i] === "A" ? "B" : "A";
      return `/a/${token.slice(0, i)}${c}${token.slice(i + 1)}`;
    }
    case 3:
      return `/a/${token.slice(0, rng.int(0, token.length - 1))}`;
    case 4:
      return `/a/${token}${rng.string(rng.int(1, 20))}`;
    case 5:
      // Another link's payload under this one's signature.
      return `/a/${v}.${rng.pick(valid.filter((t) => t !== token)).split(".")[1]}.${sig}`;
    case 6:
      return `/a/${signCapability(randomBytes(32), claims)}`;
    case 7:
      return `/a/${signCapability(key, { ...claims, e: 1 })}`;
    case 8:
      return `/a/${v}.${Buffer.from(JSON.stringify({ ...claims, t: "call_other" })).toString("base64url")}.${sig}`;
    case 9:
      return `/a/${enc(token)}%00`;
    case 10:
      return `/a/${token}/../../session`;
    case 11:
      return `/a/..%2F..%2Fsession%2F${enc(claims.s)}%2Fstatus`;
    case 12:
      return `/a/${v}.${payload}.${Buffer.from(randomBytes(32)).toString("base64url")}`;
    default:
      return `/a/${"v1.".repeat(rng.int(1, 500))}`;
  }
}

describe("fuzz: answer links", () => {
  it(`${HOSTILE} hostile link requests (seed ${SEED}), then ${RACERS} racing taps: no 5xx, nothing changes, exactly one wins`, async () => {
    console.log(`link fuzz seed ${SEED} (QWEN_FUZZ_SEED=${SEED} repeats this run)`);
    const phone = await Phone.start();
    phones.push(phone);
    const daemon = await world.env.startDaemon(["--notify-webhook", phone.hookUrl]);
    const asked = await askQuestion(daemon);
    const told = await phone.until((n) => n.toolCallId === asked.callId, "the question's notification");
    const actions = told.actions ?? [];
    expect(actions).toHaveLength(3);
    const tokens = actions.map((a) => a.url.split("/a/")[1] as string);
    const { readFileSync } = await import("node:fs");
    const key = Buffer.from(readFileSync(`${world.env.qwenHome}/notify/link-key`, "utf8").trim(), "hex");

    const rng = new Prng(SEED);
    const statuses = new Map<number, number>();
    const fiveHundreds: string[] = [];
    let sent = 0;
    const worker = async () => {
      while (sent < HOSTILE) {
        sent += 1;
        const method = rng.weighted([
          [5, "POST"],
          [3, "GET"],
          [1, "HEAD"],
          [1, rng.pick(["PUT", "DELETE", "PATCH", "OPTIONS"])],
        ] as const);
        const path = hostilePath(rng, tokens, key);
        const big = method === "POST" && rng.chance(0.15);
        const body = big
          ? Buffer.alloc(rng.int(60_000, 400_000), 0x61)
          : method === "POST" && rng.chance(0.3)
            ? Buffer.from(`q0=${rng.string(rng.int(0, 200))}&do=${rng.pick(["submit", "decline", ""])}`)
            : undefined;
        const type = body
          ? rng.pick(["application/x-www-form-urlencoded", "application/json", "text/plain"])
          : undefined;
        // From many loopback addresses, so most get past the per-address limit of failures to the checks behind it.
        const from = `127.0.2.${rng.int(1, 60)}`;
        const res = await send(daemon.url, method, path, from, body, type);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (process.env.QWEN_FUZZ_LOG)
          appendFileSync(process.env.QWEN_FUZZ_LOG, `${method} ${res.status} ${path}\n`);
        if (res.status >= 500)
          fiveHundreds.push(`${method} ${path.slice(0, 120)} -> ${res.status} ${res.body.slice(0, 200)}`);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    console.log(`link fuzz statuses: ${JSON.stringify(Object.fromEntries(statuses))}`);
    expect(fiveHundreds).toEqual([]);
    // An address that keeps failing is refused, even with a good link; the question is untouched.
    for (let i = 0; i < 20; i += 1) await send(daemon.url, "POST", `/a/v1.x${i}.y`, "127.0.3.3");
    expect((await send(daemon.url, "POST", `/a/${tokens[0]}`, "127.0.3.3")).status).toBe(429);
    expect((await getStatus(daemon, asked.sessionId)).isWaitingForUserQuestion).toBe(true);

    // Racing taps from the phone's address on all three actions: exactly one wins, the rest see its answer.
    const taps = await Promise.all(
      Array.from({ length: RACERS }, (_, i) => send(daemon.url, "POST", `/a/${tokens[i % 3]}`, "127.0.0.1")),
    );
    const codes = taps.map((t) => t.status);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(RACERS - 1);
    await asked.events.waitForEvent("turn_complete");
    const toolResults = world.server.requests.filter((r) => r.messages.at(-1)?.role === "tool");
    expect(toolResults).toHaveLength(1);

    // Replays, GET and POST, of every action: refused, first answer shown, never a 5xx.
    for (const token of tokens) {
      for (const method of ["GET", "POST"]) {
        const replay = await send(daemon.url, method, `/a/${token}`, "127.0.0.1");
        expect(replay.status).toBe(409);
        expect(replay.body).toContain("already answered");
      }
    }
    await asked.events.close();
  }, 240_000);
});
