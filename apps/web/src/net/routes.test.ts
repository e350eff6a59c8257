import { describe, expect, it } from "vitest";
import { createApi } from "./api.js";
import { callRoute, routeUrl } from "./routes.js";

function recordingApi(answer = "{}", status = 200) {
  const seen: { url: string; method: string; body: unknown; clientId: unknown }[] = [];
  const api = createApi({
    fetch: (async (url: string, init: RequestInit) => {
      const headers = init.headers as Record<string, string>;
      seen.push({ url, method: init.method ?? "", body: init.body, clientId: headers["x-qwen-client-id"] });
      return new Response(answer, { status });
    }) as unknown as typeof fetch,
  });
  return { api, seen };
}

describe("routes by the contract's table", () => {
  it("calls a route with the row's method and path, ids escaped as one segment", async () => {
    const { api, seen } = recordingApi();
    await callRoute(api, "vote", {
      params: { id: "a/b", requestId: "r 1" },
      body: { outcome: { outcome: "cancelled" } },
      clientId: "client_1",
    });
    expect(seen).toEqual([
      {
        url: "/session/a%2Fb/permission/r%201",
        method: "POST",
        body: '{"outcome":{"outcome":"cancelled"}}',
        clientId: "client_1",
      },
    ]);
  });

  it("answers with the parsed body, typed by the row", async () => {
    const { api, seen } = recordingApi('{"promptId":"p1","lastEventId":3,"eventEpoch":"e"}', 202);
    const accepted = await callRoute(api, "prompt", {
      params: { id: "s1" },
      body: { prompt: [{ type: "text", text: "hi" }] },
    });
    expect(accepted.promptId).toBe("p1");
    expect(seen[0]).toMatchObject({ url: "/session/s1/prompt", method: "POST" });
  });

  it("puts the query on the path and leaves out what is undefined", async () => {
    const { api, seen } = recordingApi('{"sessions":[]}');
    await callRoute(api, "workspaceSessions", {
      params: { cwd: "/w" },
      query: { size: 50, cursor: undefined },
    });
    await callRoute(api, "closeSession", { params: { id: "s1" } });
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      "GET /workspace/%2Fw/sessions?size=50",
      "DELETE /session/s1",
    ]);
  });

  it("gives the URL of a route that is not a plain request", () => {
    expect(routeUrl("events", { params: { id: "s 1" } })).toBe("/session/s%201/events");
    expect(routeUrl("detach", { params: { id: "s1" } })).toBe("/session/s1/detach");
  });
});
