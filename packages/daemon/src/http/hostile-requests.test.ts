// Requests an attacker (or a flaky network) sends, over real sockets: torn uploads and paths that try to write
// lines of their own into the daemon's log.
import { afterEach, describe, expect, it } from "vitest";
import { closedBy, closeSocketDaemons, rawConnection, startSocketDaemon } from "../testing/socket-daemon.js";
import { jsonOf, waitFor } from "../testing/test-daemon.js";

afterEach(closeSocketDaemons);

/** Waits until the daemon has seen `n` requests through, so a negative log assertion is not made too early. */
async function settled(url: string): Promise<void> {
  for (let i = 0; i < 3; i += 1) await (await fetch(`${url}/health`)).text();
}

describe("an upload cut off half-way", () => {
  it("is not logged as an unhandled error, and the daemon serves the next request", async () => {
    const { daemon, logs } = await startSocketDaemon();
    for (const path of ["/session", "/session/x%0D%0Aqwen%20serve:%20FORGED/prompt"]) {
      const socket = await rawConnection(daemon.port);
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"cwd":`,
      );
      await new Promise((r) => setTimeout(r, 20));
      socket.destroy();
      await closedBy(socket);
    }
    await settled(daemon.url);
    await new Promise((r) => setTimeout(r, 100));
    expect(logs.filter((l) => /unhandled|FORGED/.test(l))).toEqual([]);
    const res = await fetch(`${daemon.url}/session`, { method: "POST", body: "{}" });
    expect(res.status).toBe(200);
  });
});

describe("the daemon's log", () => {
  it("holds one line per entry, whatever the text it reports holds", async () => {
    const { daemon, logs } = await startSocketDaemon();
    // A child whose session/close fails with a message holding a line break: the error text is the child's.
    const session = await jsonOf(await fetch(`${daemon.url}/session`, { method: "POST", body: "{}" }));
    const child = daemon.service.children.current;
    if (child === undefined) throw new Error("no child");
    child.closeSession = async () => {
      throw new Error("close failed\nqwen serve: FORGED line");
    };
    const { clientId } = session;
    const del = await fetch(`${daemon.url}/session/${session.sessionId}`, {
      method: "DELETE",
      headers: { "X-Qwen-Client-Id": clientId },
    });
    expect(del.status).toBe(204);
    await waitFor(() => logs.some((l) => l.includes("FORGED")), "the close failure logged");
    for (const line of logs) expect(line).not.toMatch(/[\r\n\u2028\u2029]/);
    expect(logs.find((l) => l.includes("FORGED"))).toContain("close failed\\nqwen serve: FORGED line");
  });
});
