import { describe, expect, it } from "vitest";
import { collectGarbage } from "../testing/gc.js";
import { ScriptedAgent } from "../testing/scripted-agent.js";
import { ChildConnection } from "./child-connection.js";

const handlers = {
  sessionUpdate: () => {},
  requestPermission: async () => ({ outcome: { outcome: "cancelled" as const } }),
};

describe("ChildConnection keeps nothing of a request once it has been answered", () => {
  it("a finished prompt's content is collectable while the child lives on", async () => {
    const agent = new ScriptedAgent();
    const child = new ChildConnection(agent.factory({ workspace: "/w" }), handlers);
    await child.initialize();
    const { sessionId } = await child.newSession("/w");
    const refs: WeakRef<object>[] = [];
    for (let i = 0; i < 5; i += 1) refs.push(await promptTracked(child, sessionId, i));
    agent.calls.length = 0; // the scripted agent's own record of what it received
    await collectGarbage();
    expect(refs.filter((ref) => ref.deref() !== undefined)).toHaveLength(0);
    expect(child.alive).toBe(true);
  });

  it("a request still in flight when the child dies is rejected with ChildGoneError", async () => {
    const agent = new ScriptedAgent({ prompt: () => new Promise(() => {}) });
    const child = new ChildConnection(agent.factory({ workspace: "/w" }), handlers);
    await child.initialize();
    const { sessionId } = await child.newSession("/w");
    const pending = child.prompt(sessionId, [{ type: "text", text: "hang" }], {});
    agent.crash();
    await expect(pending).rejects.toMatchObject({ name: "ChildGoneError" });
  });
});

// The block is made in a function of its own, so no binding of the test's frame keeps it alive.
async function promptTracked(child: ChildConnection, sessionId: string, i: number): Promise<WeakRef<object>> {
  const block = { type: "text", text: `prompt ${i} ${"x".repeat(10_000)}` };
  const ref = new WeakRef(block);
  await child.prompt(sessionId, [block], {});
  return ref;
}
