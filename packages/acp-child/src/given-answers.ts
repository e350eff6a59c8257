// `_meta["qwen.daemon.journaledAnswers"]` on a load/resume request: answers the daemon acknowledged (and
// journaled) for questions of the session's trailing batch before a crash, keyed by the question's call id,
// each in the shape of the permission response the daemon would have sent. Read exactly like a live answer
// (interpretPermissionResponse), so a journaled answer means what the same vote would have meant live.
import type { GivenAnswer } from "@qwen-daemon/core";
import { JOURNALED_ANSWERS_META_KEY, type Meta, PermissionResponse } from "@qwen-daemon/core/protocol";
import { z } from "zod";
import type { Logger } from "./logger.js";
import { interpretPermissionResponse, permissionOptions } from "./permissions.js";

const JournaledAnswers = z.record(z.string().min(1), PermissionResponse);

/**
 * The answers a load/resume request carries, or undefined when it carries none. A malformed value is
 * logged and ignored: the load goes on as if nothing had been journaled.
 */
export function givenAnswersOf(
  meta: Meta | null | undefined,
  log: Logger,
): ReadonlyMap<string, GivenAnswer> | undefined {
  const value = meta?.[JOURNALED_ANSWERS_META_KEY];
  if (value === undefined) return undefined;
  const parsed = JournaledAnswers.safeParse(value);
  if (!parsed.success) {
    log.warn(`ignoring malformed _meta["${JOURNALED_ANSWERS_META_KEY}"]: ${parsed.error.message}`);
    return undefined;
  }
  const offered = permissionOptions("user_question");
  const answers = new Map<string, GivenAnswer>();
  for (const [callId, response] of Object.entries(parsed.data)) {
    const outcome = interpretPermissionResponse(response, offered);
    if (outcome.outcome === "approved" || outcome.outcome === "rejected") answers.set(callId, outcome);
  }
  return answers.size > 0 ? answers : undefined;
}
