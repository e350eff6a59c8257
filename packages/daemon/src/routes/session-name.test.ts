import { describe, expect, it } from "vitest";
import { createTestDaemon, TEST_WORKSPACE } from "../testing/test-daemon.js";

describe("POST /session/:id/name", () => {
  it("names the session: its status and its list entry say the name from then on", async () => {
    const d = createTestDaemon();
    const { sessionId, clientId } = await d.createSession();
    const res = await d.request("POST", `/session/${sessionId}/name`, {
      body: { name: "  Install docs " },
      headers: { "x-qwen-client-id": clientId },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ sessionId, displayName: "Install docs" });
    const status = await (await d.request("GET", `/session/${sessionId}/status`)).json();
    expect(status.displayName).toBe("Install docs");
    const list = await (
      await d.request("GET", `/workspace/${encodeURIComponent(TEST_WORKSPACE)}/sessions`)
    ).json();
    expect(list.sessions.find((s: { sessionId: string }) => s.sessionId === sessionId)?.displayName).toBe(
      "Install docs",
    );
  });

  it("refuses an empty or missing name (400), a client not attached (400), an unknown session (404)", async () => {
    const d = createTestDaemon();
    const { sessionId } = await d.createSession();
    for (const body of [{ name: "   " }, {}, { name: "x".repeat(201) }]) {
      const res = await d.request("POST", `/session/${sessionId}/name`, { body });
      expect(res.status).toBe(400);
    }
    const stranger = await d.request("POST", `/session/${sessionId}/name`, {
      body: { name: "Mine" },
      headers: { "x-qwen-client-id": "client_nobody" },
    });
    expect((await stranger.json()).code).toBe("invalid_client_id");
    expect((await d.request("POST", "/session/nope/name", { body: { name: "x" } })).status).toBe(404);
  });
});
