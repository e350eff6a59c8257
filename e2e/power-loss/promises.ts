// Which promises a power cut after `cut` operations must keep, and which cuts the test loads. Pure.

import type { FsOp } from "@qwen-daemon/core";
import { afterPowerLoss, type DiskState, diskStateKey } from "@qwen-daemon/core/testing";
import type { StoryMarks } from "./story.js";

export type StoryPromise =
  /** The session answered POST /session: a load finds it (no 404). */
  | "session_exists"
  /** The prompt's 202: the load reports it (promptTerminals) or the session holds it. */
  | "prompt_reported"
  /** The question reached a client and was not answered yet: the load asks it again. */
  | "question_asked_again"
  /**
   * The vote's 200, or the answer in the transcript: the model receives the answer as the question's result (at
   * the latest with the next prompt).
   */
  | "answer_delivered"
  /** The notification was scheduled (its first try seen) and not delivered yet: the next daemon delivers it. */
  | "notification_delivered";

export function promisesAt(cut: number, marks: StoryMarks): Set<StoryPromise> {
  const made = new Set<StoryPromise>();
  if (cut >= marks.created) made.add("session_exists");
  if (cut >= marks.accepted) made.add("prompt_reported");
  if (cut >= marks.asked && cut < marks.voted) made.add("question_asked_again");
  if (cut >= marks.voted) made.add("answer_delivered");
  if (cut >= marks.scheduled && cut < marks.notified) made.add("notification_delivered");
  return made;
}

/** Whether a state's transcript (chats/<session>.jsonl, not its journals) holds `text`. */
export function transcriptHolds(state: DiskState, text: string): boolean {
  for (const [path, bytes] of state.files) {
    if (/(^|\/)chats\/[0-9a-f-]+\.jsonl$/.test(path) && Buffer.from(bytes).toString("utf8").includes(text))
      return true;
  }
  return false;
}

/** Cuts that leave the same disk, with every promise made at any of them. */
export interface CutGroup {
  first: number;
  last: number;
  state: DiskState;
  promises: Set<StoryPromise>;
}

/**
 * The distinct power-loss states of a story, in order, each with the promises it must keep. `answered` tells a
 * state whose transcript already holds the answer: the agent had it before the cut, so the question is not
 * asked again and the model must receive the answer. (The test reads the vote's mark after its 200 arrives;
 * on a loaded machine the agent has recorded the answer by then, so such states fall before that mark.)
 */
export function cutGroups(
  ops: readonly FsOp[],
  root: string,
  marks: StoryMarks,
  answered: (state: DiskState) => boolean,
): CutGroup[] {
  const groups: CutGroup[] = [];
  let key: string | undefined;
  for (let cut = 0; cut <= ops.length; cut += 1) {
    const state = afterPowerLoss(ops, root, cut);
    const next = diskStateKey(state);
    const promises = promisesAt(cut, marks);
    const last = groups.at(-1);
    if (last !== undefined && next === key) {
      last.last = cut;
      for (const p of promises) last.promises.add(p);
    } else groups.push({ first: cut, last: cut, state, promises });
    key = next;
  }
  // An answer delivered from the journal may be asked again and answered at once: nobody sees it waiting.
  for (const group of groups) {
    if (group.promises.has("question_asked_again") && answered(group.state))
      group.promises.add("answer_delivered");
    if (group.promises.has("answer_delivered")) group.promises.delete("question_asked_again");
  }
  return groups.filter((group) => group.promises.size > 0);
}

/**
 * The groups to load: every one when `budget` covers them, else the first cut of each promise and the
 * story's end, then a seeded sample of the rest up to `budget`.
 */
export function pickGroups(
  groups: readonly CutGroup[],
  marks: StoryMarks,
  budget: number,
  random: () => number,
): CutGroup[] {
  if (groups.length <= budget) return [...groups];
  const at = (cut: number) => groups.find((g) => g.first <= cut && cut <= g.last);
  const chosen = new Set<CutGroup>();
  for (const cut of [marks.created, marks.accepted, marks.asked, marks.scheduled, marks.voted]) {
    const group = at(cut);
    if (group) chosen.add(group);
  }
  const end = groups.at(-1);
  if (end) chosen.add(end);
  const rest = groups.filter((g) => !chosen.has(g));
  while (chosen.size < budget && rest.length > 0) {
    chosen.add(rest.splice(Math.floor(random() * rest.length), 1)[0] as CutGroup);
  }
  return groups.filter((g) => chosen.has(g));
}
