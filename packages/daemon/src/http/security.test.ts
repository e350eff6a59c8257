import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DaemonOptions } from "../options.js";
import { createTestDaemon } from "../testing/test-daemon.js";
import { hostnameOfHostHeader, isLoopbackHostname } from "./loopback-host.js";

describe("bearer token", () => {
  it("401 {error:Unauthorized} without, or with a wrong, token; 200 with the right one", async () => {
    const d = createTestDaemon({ token: "s3cret-token" });
    for (const headers of [
      {},
      { Authorization: "Bearer wrong" },
      { Authorization: "Basic s3cret-token" },
      { Authorization: "Bearer" },
    ]) {
      const res = await d.request("GET", "/capabilities", { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer /);
      expect(await res.json()).toEqual({ error: "Unauthorized" });
    }
    const ok = await d.request("GET", "/capabilities", { headers: { Authorization: "bearer s3cret-token" } });
    expect(ok.status).toBe(200);
  });

  it("/health answers without a token", async () => {
    const d = createTestDaemon({ token: "s3cret-token" });
    const res = await d.request("GET", "/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });

  it("a malformed Authorization header is 401 like any other failure, not 400", async () => {
    const d = createTestDaemon({ token: "s3cret-token" });
    for (const authorization of [
      "Bearer s3cret token",
      "Bearer\ts3cret-token",
      "Bearer s3cret-token!",
      "s3cret-token",
    ]) {
      const res = await d.request("GET", "/capabilities", { headers: { Authorization: authorization } });
      expect([authorization, res.status, await res.json()]).toEqual([
        authorization,
        401,
        { error: "Unauthorized" },
      ]);
    }
  });

  it("refuses a token no Bearer header could carry, without repeating it", () => {
    const parsed = DaemonOptions.safeParse({ token: "my secret!" });
    expect(parsed.success).toBe(false);
    const message = parsed.error?.issues[0]?.message ?? "";
    expect(message).toContain("letters, digits");
    expect(message).not.toContain("secret");
    expect(DaemonOptions.safeParse({ token: "aB3-_.~+/x==" }).success).toBe(true);
  });
});

describe("Host allowlist (loopback binds)", () => {
  it.each(["evil.example:4170", "evil.example", "192.168.1.10:4170"])("403 for Host %s", async (host) => {
    const d = createTestDaemon();
    const res = await d.request("GET", "/health", { headers: { Host: host } });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "Invalid Host header" });
  });

  it.each(["localhost:4170", "127.0.0.1:4170", "[::1]:4170", "127.0.0.1", "app.localhost:1"])(
    "allows Host %s",
    async (host) => {
      const d = createTestDaemon();
      expect((await d.request("GET", "/health", { headers: { Host: host } })).status).toBe(200);
    },
  );

  it("does not apply to non-loopback binds (a token guards those)", async () => {
    const d = createTestDaemon({ hostname: "0.0.0.0", token: "t" });
    const res = await d.request("GET", "/health", { headers: { Host: "daemon.example:4170" } });
    expect(res.status).toBe(200);
  });

  it("names loopback hosts", () => {
    expect(isLoopbackHostname("localhost")).toBe(true);
    expect(isLoopbackHostname("127.8.9.10")).toBe(true);
    expect(isLoopbackHostname("[::1]")).toBe(true);
    expect(isLoopbackHostname("0.0.0.0")).toBe(false);
    expect(isLoopbackHostname("localhost.evil.com")).toBe(false);
    expect(hostnameOfHostHeader("[::1]:80")).toBe("[::1]");
    expect(hostnameOfHostHeader("Example.COM:8080")).toBe("example.com");
  });
});

describe("Origin refusal", () => {
  it("403 for a browser Origin that was not allowed, and for Origin: null", async () => {
    const d = createTestDaemon();
    for (const origin of ["https://evil.example", "null"]) {
      const res = await d.request("GET", "/capabilities", { headers: { Origin: origin } });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: "Request denied by CORS policy" });
    }
  });

  it("allows --allow-origin origins with CORS headers and answers their preflight", async () => {
    const d = createTestDaemon({ allowOrigins: ["https://app.example"] });
    const res = await d.request("GET", "/capabilities", { headers: { Origin: "https://app.example" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("https://app.example");
    const preflight = await d.request("OPTIONS", "/session", {
      headers: { Origin: "https://app.example", "Access-Control-Request-Method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("Access-Control-Allow-Headers")).toContain("X-Qwen-Client-Id");
  });

  it("allows the daemon's own origin (its web client)", async () => {
    const d = createTestDaemon();
    const res = await d.request("GET", "/capabilities", {
      headers: { Origin: "http://127.0.0.1:4170", Host: "127.0.0.1:4170" },
    });
    expect(res.status).toBe(200);
  });
});

describe("request bodies", () => {
  it("400 {error:'Invalid JSON in request body'} for malformed JSON", async () => {
    const d = createTestDaemon();
    const res = await d.request("POST", "/session", { body: "{not json" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "Invalid JSON in request body" });
  });

  it("413 for bodies over 10 MB", async () => {
    const d = createTestDaemon();
    const big = JSON.stringify({ prompt: [{ type: "text", text: "x".repeat(10 * 1024 * 1024) }] });
    const res = await d.request("POST", "/session", { body: big });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: "Request body too large (max 10 MB)" });
  });

  it("drops __proto__ / constructor / prototype keys", async () => {
    const d = createTestDaemon();
    const res = await d.request("POST", "/session", {
      body: '{"__proto__":{"sessionScope":"thread"},"constructor":{"prototype":{"x":1}}}',
    });
    expect(res.status).toBe(200);
    expect(({} as Record<string, unknown>).sessionScope).toBeUndefined();
  });
});

describe("misc routes", () => {
  it("GET /capabilities describes protocol, features, workspace, policy and limits", async () => {
    const d = createTestDaemon({ restoreAskUserQuestion: true, permissionPolicy: "consensus" });
    const body = await (await d.request("GET", "/capabilities")).json();
    expect(body).toMatchObject({
      v: 1,
      protocolVersions: { current: "v1", supported: ["v1"] },
      mode: "http-bridge",
      workspaceCwd: "/work/test-workspace",
      transports: ["rest"],
      policy: { permission: "consensus" },
      limits: { maxSessions: 8, maxPendingPromptsPerSession: 5, maxConnections: 64, eventRingSize: 8000 },
    });
    expect(body.features).toContain("session_prompt");
    expect(body.features).toContain("restore_ask_user_question");
  });

  it("GET /daemon/status reports pid, uptime, sessions, children and memory", async () => {
    const d = createTestDaemon();
    await d.createSession();
    const body = await (await d.request("GET", "/daemon/status")).json();
    expect(body).toMatchObject({
      pid: process.pid,
      uptimeMs: expect.any(Number),
      sessions: { live: 1, limit: 8, ids: ["sess-1"] },
      children: { spawned: 1 },
      memory: { rss: expect.any(Number) },
    });
  });

  it("unknown routes are 404 JSON", async () => {
    const d = createTestDaemon();
    const res = await d.request("GET", "/nope");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "Not found" });
  });

  it("serves the web client's files at / before auth, never shadowing API routes", async () => {
    const root = mkdtempSync(join(tmpdir(), "qwen-web-"));
    writeFileSync(join(root, "index.html"), "<h1>qwen</h1>");
    const d = createTestDaemon({ webRoot: root, token: "t" });
    const page = await d.request("GET", "/");
    expect(page.status).toBe(200);
    expect(await page.text()).toBe("<h1>qwen</h1>");
    expect((await d.request("GET", "/capabilities")).status).toBe(401);
    expect((await d.request("GET", "/missing.js")).status).toBe(401);
  });
});
