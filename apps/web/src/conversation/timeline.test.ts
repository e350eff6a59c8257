import { describe, expect, it } from "vitest";
import { Timeline, type TimelineItem } from "./timeline.js";

const chunk = (sessionUpdate: string, text: string) => ({ sessionUpdate, content: { type: "text", text } });
const label = (i: TimelineItem) => ("text" in i ? i.text : "title" in i ? i.title : i.kind);

describe("Timeline", () => {
  it("merges streamed chunks of one message into one item", () => {
    const t = new Timeline();
    t.sessionUpdate(chunk("user_message_chunk", "hello"), "p1");
    const a = t.sessionUpdate(chunk("agent_message_chunk", "[demo model] "), "p1");
    const b = t.sessionUpdate(chunk("agent_message_chunk", "Done."), "p1");
    expect(a).toBe(b);
    expect(t.items.map((i) => [i.kind, label(i)])).toEqual([
      ["user", "hello"],
      ["agent", "[demo model] Done."],
    ]);
  });

  it("starts a new message after a tool call, a note, an answer, or another prompt's chunk", () => {
    const t = new Timeline();
    t.sessionUpdate(chunk("agent_message_chunk", "a"), "p1");
    t.sessionUpdate({ sessionUpdate: "tool_call", toolCallId: "c1", title: "Ask", status: "pending" }, "p1");
    t.sessionUpdate(chunk("agent_message_chunk", "b"), "p1");
    t.note("notice", "Stopped.");
    t.sessionUpdate(chunk("agent_message_chunk", "c"), "p1");
    t.answer({ requestId: "r1", by: "you", verdict: "Answered", subject: "Ask", lines: [] });
    t.sessionUpdate(chunk("agent_message_chunk", "d"), "p1");
    t.sessionUpdate(chunk("agent_message_chunk", "e"), "p2");
    expect(t.items.map(label)).toEqual(["a", "Ask", "b", "Stopped.", "c", "answer", "d", "e"]);
  });

  it("updates a tool call in place: status, title, output and diffs", () => {
    const t = new Timeline();
    const first = t.sessionUpdate({
      sessionUpdate: "tool_call",
      toolCallId: "w",
      title: "Write demo-notes.md",
      kind: "edit",
      status: "pending",
      rawInput: { file_path: "demo-notes.md" },
      content: [{ type: "diff", path: "/ws/demo-notes.md", oldText: null, newText: "# Demo" }],
      _meta: { toolName: "write_file" },
    });
    const second = t.sessionUpdate({
      sessionUpdate: "tool_call_update",
      toolCallId: "w",
      status: "completed",
      content: [{ type: "content", content: { type: "text", text: "Successfully created" } }],
    });
    expect(second).toBe(first);
    expect(t.tool("w")).toEqual({
      key: "tool:w",
      kind: "tool",
      toolCallId: "w",
      title: "Write demo-notes.md",
      toolKind: "edit",
      toolName: "write_file",
      status: "completed",
      output: "Successfully created",
      diffs: [{ path: "/ws/demo-notes.md", oldText: null, newText: "# Demo" }],
      rawInput: { file_path: "demo-notes.md" },
    });
    expect(t.items).toHaveLength(1);
  });

  it("creates an item for an update whose tool_call it never saw, and ignores unknown updates and statuses", () => {
    const t = new Timeline();
    t.sessionUpdate({ sessionUpdate: "tool_call_update", toolCallId: "x", status: "failed" });
    t.sessionUpdate({ sessionUpdate: "tool_call_update", toolCallId: "x", status: "exploded" });
    expect(
      t.sessionUpdate({ sessionUpdate: "available_commands_update", availableCommands: [] }),
    ).toBeUndefined();
    expect(t.items).toEqual([
      { key: "tool:x", kind: "tool", toolCallId: "x", title: "x", status: "failed", output: "", diffs: [] },
    ]);
  });

  it("keeps a plan as entries with their status, one plan per conversation", () => {
    const t = new Timeline();
    t.sessionUpdate({ sessionUpdate: "plan", entries: [{ content: "read", status: "completed" }] });
    t.sessionUpdate({
      sessionUpdate: "plan",
      entries: [{ content: "read", status: "completed" }, { content: "write" }, { nonsense: 1 }],
    });
    expect(t.items).toEqual([
      {
        key: "plan",
        kind: "plan",
        entries: [
          { content: "read", status: "completed" },
          { content: "write", status: "pending" },
        ],
      },
    ]);
  });

  it("records one answer per request, updated in place", () => {
    const t = new Timeline();
    const a = t.answer({ requestId: "r", by: "other", verdict: "Answered", subject: "Ask", lines: [] });
    const b = t.answer({
      requestId: "r",
      by: "other",
      verdict: "Answered",
      subject: "Ask",
      lines: [{ label: "Format", value: "Checklist" }],
    });
    expect(b).toBe(a);
    expect(t.items).toHaveLength(1);
    expect(t.get("answer:r")).toMatchObject({ lines: [{ label: "Format", value: "Checklist" }] });
  });
});
