// Rebuilding the model API history (Content[]) from transcript records.
//
// Which records: a transcript is normally one linear chain (each record's parent is the one before it), and
// then file order is the history. When some record has two or more children the file holds branches (a
// rewind or an edited message continued from an earlier point); the conversation is then the branch that
// ends at the last record of the file, found by walking parentUuid links back from it. A walk that reaches a
// parent missing from the file (a record lost to corruption) stops there: what is before the gap cannot be
// placed on that branch with certainty.
//
// What comes out: system records are skipped, records with no parts are skipped (the API rejects empty
// turns), and consecutive contents of the same role are merged into one turn, because the model API wants
// roles to alternate: a model text record followed by a model functionCall record become one model turn, and
// the tool_result records answering a batch of calls (plus any user text sent right after them) become the one
// user turn that follows the call. Part order is kept. No repair happens here: dangling calls are left
// for history/orphan-repair. Part objects are shared with the records, not copied.
import type { Content } from "../content.js";
import type { TranscriptRecord } from "./records.js";

export function historyFromRecords(records: readonly TranscriptRecord[]): Content[] {
  const history: Content[] = [];
  for (const record of activeBranch(records)) {
    if (record.type === "system" || record.message.parts.length === 0) continue;
    const previous = history.at(-1);
    if (previous && previous.role === record.message.role) previous.parts.push(...record.message.parts);
    else history.push({ role: record.message.role, parts: [...record.message.parts] });
  }
  return history;
}

/** The records of the conversation that ends at the last record: file order unless the file branches. */
export function activeBranch(records: readonly TranscriptRecord[]): readonly TranscriptRecord[] {
  if (!hasBranches(records)) return records;
  const byUuid = new Map<string, TranscriptRecord>();
  for (const record of records) byUuid.set(record.uuid, record);
  const branch: TranscriptRecord[] = [];
  const seen = new Set<string>();
  let current = records.at(-1);
  // `seen` guards against a cycle of parent links in a damaged file.
  while (current && !seen.has(current.uuid)) {
    seen.add(current.uuid);
    branch.push(current);
    current = current.parentUuid === null ? undefined : byUuid.get(current.parentUuid);
  }
  return branch.reverse();
}

function hasBranches(records: readonly TranscriptRecord[]): boolean {
  const parents = new Set<string>();
  for (const record of records) {
    if (record.parentUuid === null) continue;
    if (parents.has(record.parentUuid)) return true;
    parents.add(record.parentUuid);
  }
  return false;
}
