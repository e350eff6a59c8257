import { describe, expect, it } from "vitest";
import * as history from "./index.js";

describe("history public API", () => {
  it("lists exactly these exports", () => {
    expect(Object.keys(history).sort()).toEqual(
      [
        "ORPHAN_TOOL_RESULT_TEXT",
        "REPLAY_MISSING_TOOL_RESULT_TEXT",
        "classifyRestoreTail",
        "classifySessionTail",
        "danglingCallIds",
        "findRestorableAskUserQuestion",
        "findRestorablePendingApprovals",
        "historyTailFromRecords",
        "pendingApprovalsFromRecords",
        "pendingOnDiskCalls",
        "pendingInteractionKindOf",
        "pendingInteractionKinds",
        "toolStartedResultUnknownText",
        "toolStartsFromRecords",
        "lastHistoryContentFromRecords",
        "repairOrphanedToolCalls",
        "repairOrphanedToolCallsWithReport",
        "restorableAskUserQuestionCallIds",
        "restoreActsOn",
        "restoreClassOfToolName",
        "syntheticToolResponsePart",
        "callInTranscript",
        "trailingQuestionCalls",
      ].sort(),
    );
  });
});
