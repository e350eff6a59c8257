import { describe, expect, it } from "vitest";
import { ActivePrompts } from "./active-prompts.js";

describe("ActivePrompts", () => {
  it("is busy from a prompt's start until its turn ends", () => {
    const a = new ActivePrompts();
    expect(a.busy).toBe(false);
    a.started("p1");
    expect(a.observe({ type: "session_update", promptId: "p1" })).toBe(true);
    expect(a.observe({ type: "turn_complete", promptId: "p1", data: { promptId: "p1" } })).toBe(false);
  });

  it("tracks queued prompts separately and learns prompts from events (a restored question's turn)", () => {
    const a = new ActivePrompts();
    a.observe({ type: "pending_prompt_added", data: { promptId: "p1" } });
    a.observe({ type: "session_update", promptId: "p2" });
    expect(a.observe({ type: "turn_error", data: { promptId: "p1", message: "boom" } })).toBe(true);
    expect(a.observe({ type: "prompt_cancelled", promptId: "p2" })).toBe(false);
  });

  it("trusts the load response's hasActivePrompt until a turn ends, and clears on session death", () => {
    const a = new ActivePrompts();
    a.reset(true);
    expect(a.busy).toBe(true);
    expect(a.observe({ type: "turn_complete", data: {} })).toBe(false);
    a.started("p3");
    expect(a.observe({ type: "session_died", data: {} })).toBe(false);
  });

  it("stays idle when a prompt's 202 is read after its turn ended (the stream was faster)", () => {
    const a = new ActivePrompts();
    a.observe({ type: "session_update", promptId: "p1" });
    a.observe({ type: "turn_complete", promptId: "p1", data: { promptId: "p1" } });
    a.started("p1");
    expect(a.busy).toBe(false);
    a.observe({ type: "pending_prompt_added", data: { promptId: "p2" } });
    a.reset(false);
    a.started("p2");
    expect(a.busy).toBe(false);
  });
});
