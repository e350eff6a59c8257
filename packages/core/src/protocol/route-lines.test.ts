import { describe, expect, it } from "vitest";
import { HttpRouteLines, routePath } from "./route-lines.js";
import { HttpRoutes } from "./routes.js";

describe("routePath", () => {
  it("fills each parameter as one escaped path segment", () => {
    expect(routePath(HttpRouteLines.vote, { id: "s/1", requestId: "r 1" })).toBe(
      "/session/s%2F1/permission/r%201",
    );
    expect(routePath(HttpRouteLines.workspaceSessions, { cwd: "/w/x" })).toBe("/workspace/%2Fw%2Fx/sessions");
    expect(routePath(HttpRouteLines.health, {})).toBe("/health");
  });

  it("adds the query, leaving out what is undefined", () => {
    expect(routePath(HttpRouteLines.transcript, { id: "s1" }, { limit: 3, other: undefined })).toBe(
      "/session/s1/transcript?limit=3",
    );
    expect(routePath(HttpRouteLines.transcript, { id: "s1" }, {})).toBe("/session/s1/transcript");
  });

  it("refuses a missing parameter", () => {
    expect(() => routePath(HttpRouteLines.status, {} as never)).toThrow(/:id/);
  });
});

it("every route row is its line plus schemas: same method, path and status", () => {
  expect(Object.keys(HttpRoutes).sort()).toEqual(Object.keys(HttpRouteLines).sort());
  for (const [name, line] of Object.entries(HttpRouteLines)) {
    const route = HttpRoutes[name as keyof typeof HttpRoutes];
    expect({ method: route.method, path: route.path, status: route.status }).toEqual(line);
  }
});
