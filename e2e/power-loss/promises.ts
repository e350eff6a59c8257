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
  /** The vote's 200: the model receives the answer as the question's result (at the latest with the next prompt). */
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

/** Cuts that leave the same disk, with every promise made at any of them. */
export interface CutGroup {
  first: number;
  last: number;
  state: DiskState;
  promises: Set<StoryPromise>;
}

/** The distinct power-loss states of a story, in order, each with the promises it must keep. */
export function cutGroups(ops: readonly FsOp[], root: string, marks: StoryMarks): CutGroup[] {
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
