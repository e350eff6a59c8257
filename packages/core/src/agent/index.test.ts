// Pins the runtime exports of the agent domain: the ACP child is written against these names.
import { expect, it } from "vitest";
import * as agent from "./index.js";

it("exports the agent runtime API", () => {
  expect(Object.keys(agent).sort()).toEqual([
    "AgentSession",
    "Chat",
    "DEFAULT_MAX_TURNS",
    "SKIPPED_AFTER_PERMISSION_CANCEL_TEXT",
    "SessionBusyError",
    "SessionClosedAbort",
    "SessionClosedError",
    "SessionExistsError",
    "invalidToolArgumentsText",
    "permissionRequestFailedText",
    "runTurn",
    "toolNotFoundText",
    "toolStartNotRecordedText",
    "unattendedReasonOf",
  ]);
});
