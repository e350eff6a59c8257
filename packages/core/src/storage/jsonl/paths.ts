// The on-disk layout of docs/protocol.md "On disk":
//   $QWEN_HOME (default ~/.qwen)/projects/<cwd with "/" -> "-">/chats/<sessionId>.jsonl (+ .ledger.jsonl,
//   + .answers.jsonl and .prompts.jsonl written by the daemon), and the daemon's $QWEN_HOME/notify/outbox.jsonl
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { assertValidSessionId, isValidSessionId } from "../session-id.js";

/** `$QWEN_HOME` when set and non-empty (made absolute), else `~/.qwen`. */
export function resolveQwenHome(env: NodeJS.ProcessEnv = process.env, home: () => string = homedir): string {
  const fromEnv = env.QWEN_HOME;
  return fromEnv ? resolve(fromEnv) : join(home(), ".qwen");
}

/**
 * The project folder name for a working directory: every "/" becomes "-" (so "/work/main" -> "-work-main").
 * The cwd must be absolute: a relative one ("..") could otherwise name a folder outside `projects/`.
 * It is normalized first so "/a/b/" and "/a/b" share one project.
 * Note: the reference implementation replaces every non-alphanumeric character; docs/protocol.md "On disk" only "/".
 */
export function projectDirName(cwd: string): string {
  if (!isAbsolute(cwd) || cwd.includes("\0")) {
    throw new Error(`Transcript cwd must be an absolute path without NUL, got ${JSON.stringify(cwd)}`);
  }
  return resolve(cwd).replaceAll("/", "-");
}

export function chatsDir(qwenHome: string, cwd: string): string {
  return join(qwenHome, "projects", projectDirName(cwd), "chats");
}

export function transcriptPath(qwenHome: string, cwd: string, sessionId: string): string {
  assertValidSessionId(sessionId);
  return join(chatsDir(qwenHome, cwd), `${sessionId}${TRANSCRIPT_SUFFIX}`);
}

export function ledgerPath(qwenHome: string, cwd: string, sessionId: string): string {
  assertValidSessionId(sessionId);
  return join(chatsDir(qwenHome, cwd), `${sessionId}${LEDGER_SUFFIX}`);
}

/** The daemon's journal of acknowledged question answers (docs/restore.md "The guarantees"), beside the transcript. */
export function answersPath(qwenHome: string, cwd: string, sessionId: string): string {
  assertValidSessionId(sessionId);
  return join(chatsDir(qwenHome, cwd), `${sessionId}${ANSWERS_SUFFIX}`);
}

/** `<sessionId>.names.jsonl`: the names a person gave the session (the daemon writes it; the last one holds). */
export function namesPath(qwenHome: string, cwd: string, sessionId: string): string {
  assertValidSessionId(sessionId);
  return join(chatsDir(qwenHome, cwd), `${sessionId}${NAMES_SUFFIX}`);
}

/**
 * The daemon's journal of prompts it acknowledged with 202 (written before the 202, so a prompt the daemon
 * accepted survives a crash that comes before the agent starts it), beside the transcript.
 */
export function promptsPath(qwenHome: string, cwd: string, sessionId: string): string {
  assertValidSessionId(sessionId);
  return join(chatsDir(qwenHome, cwd), `${sessionId}${PROMPTS_SUFFIX}`);
}

/**
 * The daemon's notification outbox (jsonl/jsonl-outbox.ts): what it has not delivered yet, and what it told.
 * One per QWEN_HOME, beside the projects.
 */
export function outboxPath(qwenHome: string): string {
  return join(qwenHome, "notify", "outbox.jsonl");
}

/** The session id a transcript file name stands for, or undefined for ledgers, journals and foreign files. */
export function sessionIdOfFileName(name: string): string | undefined {
  if (
    !name.endsWith(TRANSCRIPT_SUFFIX) ||
    [LEDGER_SUFFIX, ANSWERS_SUFFIX, PROMPTS_SUFFIX, NAMES_SUFFIX].some((x) => name.endsWith(x))
  ) {
    return undefined;
  }
  const id = name.slice(0, -TRANSCRIPT_SUFFIX.length);
  return isValidSessionId(id) ? id : undefined;
}

/** File-name suffixes: a session's logs share its id and differ by suffix. */
export const TRANSCRIPT_SUFFIX = ".jsonl";
export const LEDGER_SUFFIX = ".ledger.jsonl";
export const ANSWERS_SUFFIX = ".answers.jsonl";
export const PROMPTS_SUFFIX = ".prompts.jsonl";
export const NAMES_SUFFIX = ".names.jsonl";
