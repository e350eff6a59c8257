// Which actions a waiting notification carries (docs/notifications.md), as pure rules: a single
// single-choice question gets one action per option plus "Decline"; a tool approval "Allow once", "Reject"
// and "Allow always" where the agent offers it; any other question (several parts, multi-select) one action
// that opens the answer page. Each action's URL holds a capability bound to the question's stable id
// (session + tool call), its decision, an expiry and a nonce; signing and randomness come in.
import {
  LINK_PATH_PREFIX,
  type LinkCapability,
  type LinkDecision,
  type NotifyAction,
  type OfferedPermissionOption,
  type PermissionVoteBody,
} from "@qwen-daemon/core/protocol";

/** What of a waiting notification the actions are made from. */
export type LinkSubject = {
  type: string;
  sessionId: string;
  toolCallId?: string | undefined;
  questions?: readonly { options: readonly string[]; multiSelect: boolean }[] | undefined;
};

export type LinkSigning = {
  /** Where people reach the daemon; its path is kept (a reverse proxy under /qwen/). */
  base: string;
  ttlMs: number;
  nowMs: number;
  nonce: () => string;
  sign: (capability: LinkCapability) => string;
};

/** One choice before it is signed. */
export type LinkChoice = { label: string; decision: LinkDecision };

export const ANSWER_PAGE_LABEL = "Answer";

/** The choices for a waiting question or approval; [] for anything else (or a request with no tool call id). */
export function linkChoices(subject: LinkSubject, offered: readonly OfferedPermissionOption[]): LinkChoice[] {
  if (subject.toolCallId === undefined) return [];
  const vote = (label: string, body: PermissionVoteBody): LinkChoice => ({
    label,
    decision: { kind: "vote", vote: body },
  });
  if (subject.type === "question_waiting") {
    const questions = subject.questions ?? [];
    const [only] = questions;
    const submit = offered.find((o) => o.kind === "allow_once")?.optionId;
    if (questions.length !== 1 || only === undefined || only.multiSelect || submit === undefined) {
      return [{ label: ANSWER_PAGE_LABEL, decision: { kind: "page" } }];
    }
    return [
      ...only.options.map((option) =>
        vote(option, { outcome: { outcome: "selected", optionId: submit }, answers: { "0": option } }),
      ),
      vote("Decline", { outcome: { outcome: "cancelled" } }),
    ];
  }
  if (subject.type === "approval_waiting") {
    const byKind = (kind: string) => offered.find((o) => o.kind === kind)?.optionId;
    const choices: LinkChoice[] = [];
    const once = byKind("allow_once");
    const always = byKind("allow_always");
    const reject = byKind("reject_once") ?? byKind("reject_always");
    if (once !== undefined)
      choices.push(vote("Allow once", { outcome: { outcome: "selected", optionId: once } }));
    if (reject !== undefined)
      choices.push(vote("Reject", { outcome: { outcome: "selected", optionId: reject } }));
    if (always !== undefined)
      choices.push(vote("Allow always", { outcome: { outcome: "selected", optionId: always } }));
    return choices;
  }
  return [];
}

/** The signed actions for `choices`. */
export function signedActions(
  subject: { sessionId: string; toolCallId: string },
  choices: readonly LinkChoice[],
  signing: LinkSigning,
): NotifyAction[] {
  const expires = Math.floor((signing.nowMs + signing.ttlMs) / 1000);
  return choices.map((choice) => {
    const token = signing.sign({
      v: 1,
      s: subject.sessionId,
      t: subject.toolCallId,
      l: choice.label,
      d: choice.decision,
      e: expires,
      n: signing.nonce(),
    });
    const url = linkUrl(signing.base, token);
    return choice.decision.kind === "vote"
      ? { label: choice.label, url, method: "POST", answer: choice.decision.vote }
      : { label: choice.label, url, method: "GET" };
  });
}

/** `<base>/a/<token>`, keeping the base's path. */
export function linkUrl(base: string, token: string): string {
  return `${base.replace(/\/+$/, "")}${LINK_PATH_PREFIX}${token}`;
}
