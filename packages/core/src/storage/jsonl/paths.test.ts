import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InvalidSessionIdError } from "../session-id.js";
import {
  answersPath,
  chatsDir,
  ledgerPath,
  namesPath,
  projectDirName,
  promptsPath,
  resolveQwenHome,
  sessionIdOfFileName,
  transcriptPath,
} from "./paths.js";

describe("transcript paths", () => {
  it("uses $QWEN_HOME when set, made absolute", () => {
    expect(resolveQwenHome({ QWEN_HOME: "/srv/qwen" })).toBe("/srv/qwen");
    expect(resolveQwenHome({ QWEN_HOME: "rel/dir" })).toBe(join(process.cwd(), "rel/dir"));
  });

  it("defaults to ~/.qwen when $QWEN_HOME is unset or empty", () => {
    expect(resolveQwenHome({}, () => "/home/u")).toBe("/home/u/.qwen");
    expect(resolveQwenHome({ QWEN_HOME: "" }, () => "/home/u")).toBe("/home/u/.qwen");
  });

  it('turns every "/" of the cwd into "-"', () => {
    expect(projectDirName("/work/main")).toBe("-work-main");
    expect(projectDirName("/")).toBe("-");
    expect(projectDirName("/a/b.c/d_e")).toBe("-a-b.c-d_e");
    expect(projectDirName("/a/b/")).toBe("-a-b");
  });

  it("refuses a relative cwd or one with NUL", () => {
    expect(() => projectDirName("..")).toThrow(/absolute/);
    expect(() => projectDirName("work/main")).toThrow(/absolute/);
    expect(() => projectDirName("/a\0b")).toThrow(/NUL/);
  });

  it("lays out chats, transcript and ledger under projects/<dir>/chats", () => {
    expect(chatsDir("/q", "/work/main")).toBe("/q/projects/-work-main/chats");
    expect(transcriptPath("/q", "/work/main", "s-1")).toBe("/q/projects/-work-main/chats/s-1.jsonl");
    expect(ledgerPath("/q", "/work/main", "s-1")).toBe("/q/projects/-work-main/chats/s-1.ledger.jsonl");
    expect(answersPath("/q", "/work/main", "s-1")).toBe("/q/projects/-work-main/chats/s-1.answers.jsonl");
    expect(promptsPath("/q", "/work/main", "s-1")).toBe("/q/projects/-work-main/chats/s-1.prompts.jsonl");
    expect(namesPath("/q", "/work/main", "s-1")).toBe("/q/projects/-work-main/chats/s-1.names.jsonl");
    // The daemon's names file is no transcript of a session called "s-1.names".
    expect(sessionIdOfFileName("s-1.names.jsonl")).toBeUndefined();
  });

  it("validates the session id before building a path", () => {
    for (const id of ["../x", "a/b", "..", "", "a\0"]) {
      expect(() => transcriptPath("/q", "/w", id)).toThrow(InvalidSessionIdError);
      expect(() => ledgerPath("/q", "/w", id)).toThrow(InvalidSessionIdError);
      expect(() => answersPath("/q", "/w", id)).toThrow(InvalidSessionIdError);
      expect(() => promptsPath("/q", "/w", id)).toThrow(InvalidSessionIdError);
      expect(() => namesPath("/q", "/w", id)).toThrow(InvalidSessionIdError);
    }
  });
});
