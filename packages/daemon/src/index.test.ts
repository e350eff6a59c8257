import { describe, expect, it } from "vitest";
import * as daemon from "./index.js";

describe("@qwen-daemon/daemon public API", () => {
  it("exports exactly these values", () => {
    expect(Object.keys(daemon).sort()).toEqual(
      [
        "DAEMON_OPTION_SPECS",
        "DEFAULT_AGENT_PACKAGE",
        "DEFAULT_HOSTNAME",
        "DEFAULT_PORT",
        "DaemonOptions",
        "MAX_TIMER_MS",
        "PERMISSION_POLICIES",
        "PermissionPolicy",
        "Sessions",
        "childArgv",
        "coreSessionStore",
        "createApp",
        "defaultChildCommand",
        "emptySessionStore",
        "storedAnswerJournal",
        "storedPromptJournal",
        "memoryAnswerJournal",
        "memoryPromptJournal",
        "memoryOutbox",
        "NotifyEvent",
        "webhookSignature",
        "forwardedChildFlags",
        "installSignalHandlers",
        "ensureLinkKey",
        "linkKeyPath",
        "rotateLinkKey",
        "resolveDaemonOptions",
        "spawnChannelFactory",
        "startDaemon",
        "webClientRoot",
      ].sort(),
    );
  });

  it("forwards the daemon's switches to its children in a fixed order", () => {
    expect(daemon.forwardedChildFlags({ experimentalLsp: true, restoreAskUserQuestion: true })).toEqual([
      "--experimental-lsp",
      "--restore-ask-user-question",
    ]);
    expect(daemon.forwardedChildFlags({ experimentalLsp: false, restoreAskUserQuestion: true })).toEqual([
      "--restore-ask-user-question",
    ]);
    expect(daemon.forwardedChildFlags({ experimentalLsp: false, restoreAskUserQuestion: false })).toEqual([]);
    expect(
      daemon.forwardedChildFlags({
        experimentalLsp: true,
        restoreAskUserQuestion: true,
        restorePendingApprovals: true,
      }),
    ).toEqual(["--experimental-lsp", "--restore-ask-user-question", "--restore-pending-approvals"]);
  });

  it("builds the child argv as <command...> --acp <extra...>", () => {
    expect(
      daemon.childArgv(["node", "cli.js"], ["--experimental-lsp", "--restore-ask-user-question"]),
    ).toEqual(["node", "cli.js", "--acp", "--experimental-lsp", "--restore-ask-user-question"]);
  });
});
