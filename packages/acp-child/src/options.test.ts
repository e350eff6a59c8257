import { describe, expect, it } from "vitest";
import { parseAcpArgv } from "./options.js";

describe("parseAcpArgv", () => {
  it("turns restore on only with --acp", () => {
    expect(parseAcpArgv(["--acp", "--restore-ask-user-question"])).toEqual({
      kind: "ok",
      options: { restoreAskUserQuestion: true, restorePendingApprovals: false, experimentalLsp: false },
    });
    expect(parseAcpArgv(["--acp"])).toEqual({
      kind: "ok",
      options: { restoreAskUserQuestion: false, restorePendingApprovals: false, experimentalLsp: false },
    });
    expect(parseAcpArgv(["--restore-ask-user-question"]).kind).toBe("error");
  });

  it("turns the approvals restore on only with --acp", () => {
    expect(parseAcpArgv(["--restore-pending-approvals", "--acp"])).toEqual({
      kind: "ok",
      options: { restoreAskUserQuestion: false, restorePendingApprovals: true, experimentalLsp: false },
    });
    expect(parseAcpArgv(["--restore-pending-approvals"]).kind).toBe("error");
  });

  it("accepts the forwarded flags in either order and refuses unknown ones", () => {
    expect(parseAcpArgv(["--experimental-lsp", "--acp", "--restore-ask-user-question"])).toEqual({
      kind: "ok",
      options: { restoreAskUserQuestion: true, restorePendingApprovals: false, experimentalLsp: true },
    });
    expect(parseAcpArgv(["--acp", "--yolo"])).toEqual({
      kind: "error",
      message: "unknown argument(s): --yolo (see --help)",
    });
  });

  it("takes --storage <url> as qwen --acp does, and refuses it without a value", () => {
    const off = { restoreAskUserQuestion: false, restorePendingApprovals: false, experimentalLsp: false };
    expect(parseAcpArgv(["--storage", "postgres://u@h/db", "--acp"])).toEqual({
      kind: "ok",
      options: { ...off, storage: "postgres://u@h/db" },
    });
    expect(parseAcpArgv(["--acp", "--storage=/srv/qwen"])).toEqual({
      kind: "ok",
      options: { ...off, storage: "/srv/qwen" },
    });
    for (const argv of [
      ["--acp", "--storage"],
      ["--storage", "--acp"],
      ["--acp", "--storage="],
    ]) {
      expect(parseAcpArgv(argv)).toEqual({
        kind: "error",
        message: "--storage needs a value: postgres://... or a folder (see --help)",
      });
    }
  });

  it("answers --help and --version before anything else", () => {
    expect(parseAcpArgv(["--help"])).toEqual({ kind: "help" });
    expect(parseAcpArgv(["--acp", "-h"])).toEqual({ kind: "help" });
    expect(parseAcpArgv(["--version"])).toEqual({ kind: "version" });
    expect(parseAcpArgv(["-v", "--yolo"])).toEqual({ kind: "version" });
  });
});
