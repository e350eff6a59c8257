// How an ended question or approval reads in the conversation: what was decided, by whom, with which
// answers. Pure: from the `permission_resolved` data (or our own vote) and the interaction it ends.
import type { DaemonEventData, DaemonEventType } from "@qwen-daemon/core/protocol";
import type { AnsweredBy, AnswerItem } from "../conversation/timeline.js";
import { answerLines, isApproval, optionLabel } from "../interactions/answers.js";
import type { Interaction } from "../interactions/interaction.js";

/** What ended it: the contract's `permission_resolved` data (or our own vote's), each field as far as known. */
export type Resolution = Partial<
  Pick<
    DaemonEventData<typeof DaemonEventType.permissionResolved>,
    "outcome" | "voterClientId" | "voterDevice" | "answers" | "reason" | "source"
  >
>;

/**
 * Who we are: this page's client id for the session and this browser's device id; `people`: several people
 * answer this daemon's questions (its policy is `consensus`), so another device is most likely another person.
 */
export type Us = { clientId: string | undefined; device: string | undefined; people?: boolean };

/** The daemon names a link answer's voter `link:<label>` (the label of the notification's action). */
const LINK_VOTER = "link:";

/** The answer item for `interaction` ended as `resolution`; `us` tells our votes from others'. */
export function answerItemFields(
  interaction: Interaction,
  resolution: Resolution,
  us: Us,
): Omit<AnswerItem, "key" | "kind"> {
  const by = whoAnswered(resolution, us);
  const subject = interaction.kind === "question" ? questionSubject(interaction) : interaction.title;
  const base = { requestId: interaction.requestId, by, subject };
  const detail = byWords(by, resolution.voterClientId);
  const withDetail = detail ? { detail } : {};
  const outcome = resolution.outcome;
  if (outcome?.outcome !== "selected" || typeof outcome.optionId !== "string") {
    return { ...base, verdict: cancelVerdict(interaction, resolution.reason), lines: [], ...withDetail };
  }
  const option = interaction.request.options.find((o) => o.optionId === outcome.optionId) ?? {
    optionId: outcome.optionId,
  };
  if (interaction.kind === "question") {
    if (!isApproval(option)) return { ...base, verdict: "Declined to answer", lines: [], ...withDetail };
    return {
      ...base,
      verdict: "Answered",
      lines: answerLines(interaction.questions, resolution.answers),
      ...withDetail,
    };
  }
  const verdict = isApproval(option) ? "Allowed" : "Rejected";
  // "Allow" / "Reject" say no more than the verdict; a standing choice ("Allow All Edits") does.
  const standing = typeof option.kind === "string" && option.kind.endsWith("_always");
  const lines = standing ? [{ label: "Choice", value: optionLabel(option) }] : [];
  return { ...base, verdict, lines, ...withDetail };
}

/**
 * By the daemon's word on the voter: this page's client, or any client naming this browser's device, is
 * "you"; a notification's link names itself `link:<label>`; a client naming another device is you on another
 * of your devices (a browser reaches the daemon only with its token or on its machine), or another person
 * where several people answer (consensus); a client naming no device is another program (an editor, a script).
 */
function whoAnswered(resolution: Resolution, us: Us): AnsweredBy {
  if (resolution.source === "answer_journal") return "journal";
  const { voterClientId, voterDevice } = resolution;
  if (voterClientId !== undefined && voterClientId === us.clientId) return "you";
  if (voterClientId?.startsWith(LINK_VOTER)) return "link";
  if (voterDevice !== undefined) {
    if (voterDevice === us.device) return "you";
    return us.people ? "person" : "device";
  }
  if (voterClientId !== undefined) return "other";
  return resolution.outcome?.outcome === "selected" ? "other" : "nobody";
}

function byWords(by: AnsweredBy, voterClientId: string | undefined): string | undefined {
  switch (by) {
    case "device":
      return "on another of your devices";
    case "person":
      return "another person answering this daemon's questions, on their device";
    case "link": {
      const label = voterClientId?.slice(LINK_VOTER.length) ?? "";
      // The answer page's action is labelled "Answer"; a one-tap action by its choice ("Green", "Allow once").
      return label === "Answer" || label === ""
        ? "on the answer page a notification linked to"
        : `with the “${label}” button of a notification`;
    }
    case "other":
      return "from another app (an editor or a script)";
    case "journal":
      return "your answer from before the restart, kept by the daemon";
    default:
      return undefined;
  }
}

function cancelVerdict(interaction: Interaction, reason: string | undefined): string {
  switch (reason) {
    case "timeout":
      return "No answer in time";
    case "session_closed":
      return "Closed before an answer";
    case "agent_cancelled":
      return "Withdrawn: the turn was stopped";
    default:
      return interaction.kind === "question" ? "Declined to answer" : "Rejected";
  }
}

function questionSubject(interaction: Interaction): string {
  const texts = interaction.questions.map((q) => q.question);
  return texts.length === 1 ? (texts[0] ?? interaction.title) : interaction.title;
}
