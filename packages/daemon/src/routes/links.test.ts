// Answer links in process: the real app and Sessions over a scripted agent that asks a question or an edit
// approval per prompt; capabilities signed with a key in a scratch folder.
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LinkCapability, LinkDecision } from "@qwen-daemon/core/protocol";
import { describe, expect, it } from "vitest";
import { signCapability } from "../links/capability.js";
import { ensureLinkKey, LinkKey, linkKeyPath } from "../links/link-key.js";
import type { PermissionPolicy } from "../permission/policy.js";
import { editRequest, questionRequest } from "../testing/question.js";
import { createTestDaemon, waitFor } from "../testing/test-daemon.js";

type Asked = "question" | "edit";

async function world(
  options: { ask?: Asked; policy?: PermissionPolicy; allow?: boolean; maxFailures?: number } = {},
) {
  const root = mkdtempSync(join(tmpdir(), "links-route-"));
  const path = linkKeyPath(root);
  await ensureLinkKey(path, { root });
  const key = new LinkKey(path);
  const answers: Record<string, unknown>[] = [];
  const d = createTestDaemon({
    permissionPolicy: options.policy ?? "first-responder",
    links: {
      key,
      allowLinkAnswers: options.allow ?? false,
      ...(options.maxFailures ? { maxFailures: options.maxFailures } : {}),
    },
    agent: {
      prompt: async (params, peer) => {
        const sessionId = String(params.sessionId);
        const request = options.ask === "edit" ? editRequest(sessionId) : questionRequest(sessionId);
        answers.push(await peer.requestPermission(request));
        return { stopReason: "end_turn" };
      },
    },
  });
  const { sessionId, clientId } = await d.createSession();
  await d.request("POST", `/session/${sessionId}/prompt`, {
    body: { prompt: [{ type: "text", text: "go" }] },
    headers: { "X-Qwen-Client-Id": clientId },
  });
  await waitFor(() => d.sessions.mediator.hasPending(sessionId), "the request");
  const toolCallId = options.ask === "edit" ? "call-e1" : "call-q1";
  const sign = (label: string, decision: LinkDecision, more: Partial<LinkCapability> = {}) =>
    signCapability(key.current() as Buffer, {
      v: 1,
      s: sessionId,
      t: toolCallId,
      l: label,
      d: decision,
      e: Math.floor(Date.now() / 1000) + 3600,
      n: randomBytes(9).toString("base64url"),
      ...more,
    });
  const from = (address: string) => ({ env: { incoming: { socket: { remoteAddress: address } } } });
  const get = async (token: string, address = "203.0.113.9") => {
    const res = await d.request("GET", `/a/${token}`, from(address));
    return { status: res.status, html: await res.text(), type: res.headers.get("content-type") };
  };
  const post = async (token: string, address = "203.0.113.9", body?: string) => {
    const res = await d.request("POST", `/a/${token}`, {
      ...from(address),
      ...(body !== undefined
        ? { body, headers: { "content-type": "application/x-www-form-urlencoded" } }
        : {}),
    });
    return { status: res.status, html: await res.text() };
  };
  return { d, sessionId, clientId, answers, sign, get, post };
}

const pick = (label: string): LinkDecision => ({
  kind: "vote",
  vote: { outcome: { outcome: "selected", optionId: "proceed_once" }, answers: { "0": label } },
});

describe("GET and POST /a/:capability", () => {
  it("GET shows the question and changes nothing; POST answers; every later use shows the first answer", async () => {
    const w = await world();
    const blue = w.sign("Blue", pick("Blue"));
    const red = w.sign("Red", pick("Red"));
    const page = await w.get(blue);
    expect(page.status).toBe(200);
    expect(page.type).toMatch(/^text\/html/);
    expect(page.html).toContain("Confirm: Blue");
    expect(page.html).not.toMatch(/<script|https?:\/\//);
    expect(w.d.sessions.mediator.hasPending(w.sessionId)).toBe(true);

    const answered = await w.post(blue);
    expect(answered.status).toBe(200);
    expect(answered.html).toContain("Blue");
    await waitFor(() => w.answers.length === 1, "the answer at the agent");
    expect(w.answers[0]).toMatchObject({
      outcome: { outcome: "selected", optionId: "proceed_once" },
      answers: { "0": "Blue" },
    });

    for (const again of [await w.post(blue), await w.post(red), await w.get(red)]) {
      expect(again.status).toBe(409);
      expect(again.html).toMatch(
        /already answered with <strong>Blue<\/strong> with the “Blue” button of a notification on \d{4}-\d\d-\d\d at \d\d:\d\d UTC\./,
      );
    }
    expect(w.answers).toHaveLength(1);
  });

  it("tampered, expired, foreign and junk capabilities change nothing, and an address that keeps failing is refused", async () => {
    const w = await world({ maxFailures: 5 });
    const good = w.sign("Blue", pick("Blue"));
    const [v, payload, sig] = good.split(".") as [string, string, string];
    const tampered = `${v}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, "base64url").toString()), l: "Red" })).toString("base64url")}.${sig}`;
    const expired = w.sign("Blue", pick("Blue"), { e: Math.floor(Date.now() / 1000) - 1 });
    const foreign = signCapability(randomBytes(32), {
      v: 1,
      s: w.sessionId,
      t: "call-q1",
      l: "Blue",
      d: pick("Blue"),
      e: 2_000_000_000,
      n: "nonce-foreign",
    });
    expect((await w.post(tampered, "198.51.100.1")).status).toBe(404);
    expect((await w.post(expired, "198.51.100.1")).status).toBe(410);
    expect((await w.post(foreign, "198.51.100.1")).status).toBe(404);
    expect((await w.get("nonsense", "198.51.100.1")).status).toBe(404);
    expect((await w.post("v1.x.y", "198.51.100.1")).status).toBe(404);
    expect(w.d.sessions.mediator.hasPending(w.sessionId)).toBe(true);
    // Five failures from that address: even a good link is refused there now, and works from elsewhere.
    expect((await w.post(good, "198.51.100.1")).status).toBe(429);
    expect(w.d.sessions.mediator.hasPending(w.sessionId)).toBe(true);
    expect((await w.post(good, "198.51.100.2")).status).toBe(200);
  });

  it("designated and local-only refuse link answers (also from loopback), unless --allow-link-answers", async () => {
    for (const policy of ["designated", "local-only", "consensus"] as const) {
      const w = await world({ policy });
      const decline = w.sign("Decline", { kind: "vote", vote: { outcome: { outcome: "cancelled" } } });
      const refused = await w.post(decline, "127.0.0.1");
      expect(refused.status, policy).toBe(403);
      expect(refused.html).toContain("--allow-link-answers");
      expect(w.d.sessions.mediator.hasPending(w.sessionId)).toBe(true);
      const allowed = await world({ policy, allow: true });
      expect((await allowed.post(allowed.sign("Blue", pick("Blue")))).status, policy).toBe(200);
      await waitFor(() => allowed.answers.length === 1, "the answer");
    }
  });

  it("an approval tapped Allow once is answered once", async () => {
    const w = await world({ ask: "edit" });
    const once = w.sign("Allow once", {
      kind: "vote",
      vote: { outcome: { outcome: "selected", optionId: "proceed_once" } },
    });
    const results = await Promise.all([w.post(once), w.post(once), w.post(once)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    await waitFor(() => w.answers.length === 1, "the answer");
    expect(w.answers[0]).toMatchObject({ outcome: { outcome: "selected", optionId: "proceed_once" } });
  });

  it("the answer page takes a composed answer (Other text included) and asks again for a missing one", async () => {
    const w = await world();
    const token = w.sign("Answer", { kind: "page" });
    const page = await w.get(token);
    expect(page.html).toMatch(/type="radio" name="q0"/);
    expect(page.html).toContain('name="q0_other"');
    const missing = await w.post(token, undefined, "do=submit");
    expect(missing.status).toBe(400);
    expect(missing.html).toContain("Answer every question");
    expect(w.d.sessions.mediator.hasPending(w.sessionId)).toBe(true);
    const done = await w.post(token, undefined, "q0=Red&q0_other=Purple%20please&do=submit");
    expect(done.status).toBe(200);
    await waitFor(() => w.answers.length === 1, "the answer");
    expect(w.answers[0]).toMatchObject({ answers: { "0": "Purple please" } });
  });

  it("a form too large is refused unread", async () => {
    const w = await world();
    const res = await w.post(w.sign("Answer", { kind: "page" }), undefined, `q0=${"x".repeat(70_000)}`);
    expect(res.status).toBe(413);
    expect(w.d.sessions.mediator.hasPending(w.sessionId)).toBe(true);
  });
});
