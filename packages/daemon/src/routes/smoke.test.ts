import { describe, expect, it } from "vitest";
import { createTestDaemon, readSseUntil } from "../testing/test-daemon.js";

describe("smoke", () => {
  it("creates a session and runs a prompt", async () => {
    const d = createTestDaemon();
    const { sessionId, clientId } = await d.createSession();
    expect(sessionId).toBe("sess-1");
    expect(clientId).toMatch(/^client_/);
    const events = await d.request("GET", `/session/${sessionId}/events`);
    expect(events.status).toBe(200);
    const res = await d.request("POST", `/session/${sessionId}/prompt`, {
      body: { prompt: [{ type: "text", text: "hi" }] },
      headers: { "X-Qwen-Client-Id": clientId },
    });
    expect(res.status).toBe(202);
    const frames = await readSseUntil(events, (f) => f.some((x) => x.event === "pending_prompt_completed"));
    console.log(frames.map((f) => `${f.id} ${f.event} ${JSON.stringify(f.data?.data)}`).join("\n"));
  });
});
