import { describe, expect, it } from "vitest";
import { Timeline, toolContentText } from "./timeline.js";

const chunk = (sessionUpdate: string, text: string) => ({ sessionUpdate, content: { type: "text", text } });

describe("Timeline", () => {
  it("merges streamed chunks of one message into one item", () => {
    const t = new Timeline();
    t.sessionUpdate(chunk("user_message_chunk", "hello"), "p1");
    const a = t.sessionUpdate(chunk("agent_message_chunk", "[demo model] "), "p1");
    const b = t.sessionUpdate(chunk("agent_message_chunk", "Done."), "p1");
    expect(a).toBe(b);
    expect(t.items.map((i) => [i.kind, i.text])).toEqual([
      ["user", "hello"],
      ["agent", "[demo model] Done."],
    ]);
  });

  it("starts a new message after a tool call, a note, or another prompt's chunk", () => {
    const t = new Timeline();
    t.sessionUpdate(chunk("agent_message_chunk", "a"), "p1");
    t.sessionUpdate({ sessionUpdate: "tool_call", toolCallId: "c1", title: "Ask", status: "pending" }, "p1");
    t.sessionUpdate(chunk("agent_message_chunk", "b"), "p1");
    t.note("notice", "Stopped.");
    t.sessionUpdate(chunk("agent_message_chunk", "c"), "p1");
    t.sessionUpdate(chunk("agent_message_chunk", "d"), "p2");
    expect(t.items.map((i) => i.text)).toEqual(["a", "Ask", "b", "Stopped.", "c", "d"]);
  });

  it("updates a tool call in place: status, title and content", () => {
    const t = new Timeline();
    const first = t.sessionUpdate({
      sessionUpdate: "tool_call",
      toolCallId: "w",
      title: "Write demo-notes.md",
      kind: "edit",
      status: "pending",
      content: [{ type: "diff", path: "/ws/demo-notes.md", oldText: null, newText: "# Demo" }],
    });
    const second = t.sessionUpdate({
      sessionUpdate: "tool_call_update",
      toolCallId: "w",
      status: "completed",
      content: [{ type: "content", content: { type: "text", text: "Successfully created" } }],
    });
    expect(second).toBe(first);
    expect(t.get("tool:w")).toMatchObject({
      kind: "tool",
      title: "Write demo-notes.md",
      toolKind: "edit",
      status: "completed",
      detail: "Successfully created",
    });
    expect(t.items).toHaveLength(1);
  });

  it("creates an item for an update whose tool_call it never saw, and ignores unknown updates", () => {
    const t = new Timeline();
    t.sessionUpdate({ sessionUpdate: "tool_call_update", toolCallId: "x", status: "failed" });
    expect(
      t.sessionUpdate({ sessionUpdate: "available_commands_update", availableCommands: [] }),
    ).toBeUndefined();
    expect(t.items).toEqual([{ key: "tool:x", kind: "tool", text: "x", title: "x", status: "failed" }]);
  });

  it("shows a plan as a checklist", () => {
    const t = new Timeline();
    t.sessionUpdate({
      sessionUpdate: "plan",
      entries: [
        { content: "read", status: "completed" },
        { content: "write", status: "pending" },
      ],
    });
    expect(t.items[0]?.text).toBe("☑ read\n☐ write");
  });
});

describe("toolContentText", () => {
  it("renders text blocks and diffs, and nothing for other shapes", () => {
    expect(
      toolContentText([
        { type: "content", content: { type: "text", text: "ok" } },
        { type: "diff", path: "a.md", newText: "x" },
        { type: "terminal", terminalId: "t" },
      ]),
    ).toBe("ok\n\na.md:\nx");
    expect(toolContentText(undefined)).toBe("");
  });
});
