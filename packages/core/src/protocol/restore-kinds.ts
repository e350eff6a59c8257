// The kinds of interaction a load can ask again after a crash (docs/restore.md), one row each: the switch
// (its name in options and Config), the command-line flag that turns it on (the daemon's and the agent's
// alike, passed on by the daemon in the rows' order), its help, the `_meta` hint and suppress keys the two
// sides exchange, the capability the daemon announces, what logs call it, and which waiting interactions it
// covers (as `pendingOnDisk` names them). The cli, the daemon and the agent derive their flag lists, parsers,
// help, options and per-kind handling from this table; a new kind is a row here plus its eligibility function
// (core/src/agent/restore-eligibility.ts). Wire names are the reference implementation's and never change.
import {
  RESTORE_ASK_USER_QUESTION_META_KEY,
  RESTORE_PENDING_APPROVALS_META_KEY,
  SUPPRESS_RESTORE_ASK_USER_QUESTION_META_KEY,
  SUPPRESS_RESTORE_PENDING_APPROVALS_META_KEY,
} from "./meta.js";

export interface RestoreKind {
  /** The option / Config name of the switch. */
  readonly switch: string;
  /** The flag, for `qwen serve` and `qwen --acp` alike. */
  readonly flag: `--${string}`;
  /** `qwen serve --help`: what the daemon's switch does. */
  readonly serveHelp: string;
  /** `qwen --acp --help` and `qwen-acp --help`: what the agent's switch does. */
  readonly agentHelp: string;
  /** child -> daemon on a load/resume answer: "I can ask this again"; daemon -> child on the restore prompt. */
  readonly hintMetaKey: string;
  /** daemon -> child on a load/resume request: the daemon will refuse this restore, so neither hint nor keep. */
  readonly suppressMetaKey: string;
  /**
   * Whether the daemon sends the suppress key even with its own switch off: the reference's kind, whose
   * agents know the key whatever their switches; a kind of ours is news to an agent without its switch.
   */
  readonly suppressWithSwitchOff: boolean;
  /** The `GET /capabilities` feature the daemon announces with the switch on. */
  readonly feature: string;
  /** What the daemon's log and `qwen serve`'s banner call this restore. */
  readonly label: string;
  /** The waiting interactions it covers (the `pendingOnDisk` kinds). */
  readonly covers: readonly ("user_question" | "exec" | "edit" | "mcp")[];
}

export const RestoreKinds = {
  question: {
    switch: "restoreAskUserQuestion",
    flag: "--restore-ask-user-question",
    serveHelp: "Ask a question again when a session whose question was left unanswered is loaded or resumed",
    agentHelp:
      "on session/load and session/resume, ask a question that was left unanswered again instead of failing it",
    hintMetaKey: RESTORE_ASK_USER_QUESTION_META_KEY,
    suppressMetaKey: SUPPRESS_RESTORE_ASK_USER_QUESTION_META_KEY,
    suppressWithSwitchOff: true,
    feature: "restore_ask_user_question",
    label: "ask_user_question",
    covers: ["user_question"],
  },
  approvals: {
    switch: "restorePendingApprovals",
    flag: "--restore-pending-approvals",
    serveHelp:
      "Ask a tool approval (command, edit, MCP tool) again when a session whose approval was left unanswered is loaded or resumed; a tool that had started is never run again",
    agentHelp:
      "on session/load and session/resume, ask a tool approval (command, edit, MCP tool) that was left unanswered again; a tool that had started is never run again, its result is reported as unknown",
    hintMetaKey: RESTORE_PENDING_APPROVALS_META_KEY,
    suppressMetaKey: SUPPRESS_RESTORE_PENDING_APPROVALS_META_KEY,
    suppressWithSwitchOff: false,
    feature: "restore_pending_approvals",
    label: "pending approvals",
    covers: ["exec", "edit", "mcp"],
  },
} as const satisfies Record<string, RestoreKind>;

export type RestoreKindName = keyof typeof RestoreKinds;
export type RestoreSwitchName = (typeof RestoreKinds)[RestoreKindName]["switch"];

/** A flag per restore kind, by the kind's name: which switches are on, which restores a load refuses, what answers need. */
export type RestoreKindSwitches = Record<RestoreKindName, boolean>;

/** Every restore switch, as one record (how the switches travel between the cli, daemon and agent). */
export type RestoreSwitches = Record<RestoreSwitchName, boolean>;

/** The kinds' names, in the table's order. */
export const RESTORE_KIND_NAMES = Object.keys(RestoreKinds) as readonly RestoreKindName[];

/** The rows in their order (the order the daemon passes the flags on in). */
export const RESTORE_KINDS: readonly (typeof RestoreKinds)[RestoreKindName][] = Object.values(RestoreKinds);

/** The kind whose row covers waiting interaction `interaction` (rows cover disjoint sets), or undefined. */
export function restoreKindCovering(interaction: RestoreKind["covers"][number]): RestoreKindName | undefined {
  return RESTORE_KIND_NAMES.find((kind) =>
    (RestoreKinds[kind].covers as readonly string[]).includes(interaction),
  );
}

/** The restore flags, in order. */
export const RESTORE_FLAGS: readonly string[] = RESTORE_KINDS.map((kind) => kind.flag);

/** The flags that turn on the switches set in `switches`, in the table's order. */
export function restoreFlagArgs(switches: Partial<RestoreSwitches>): string[] {
  return RESTORE_KINDS.filter((kind) => switches[kind.switch] === true).map((kind) => kind.flag);
}

/** The restore switches of a record that names each by its row's `switch` (only an explicit true is on). */
export function pickRestoreSwitches(options: Partial<RestoreSwitches>): RestoreSwitches {
  return effectiveRestoreSwitches(true, options);
}

/** The switches per kind, from a record that names each by its row's `switch` (only an explicit true is on). */
export function kindSwitchesOf(options: Partial<RestoreSwitches>): RestoreKindSwitches {
  const switches = {} as RestoreKindSwitches;
  for (const kind of RESTORE_KIND_NAMES) switches[kind] = options[RestoreKinds[kind].switch] === true;
  return switches;
}

/** Which switches an argv turns on (other arguments are not looked at). */
export function restoreSwitchesFromArgv(argv: readonly string[]): RestoreSwitches {
  const switches = {} as RestoreSwitches;
  for (const kind of RESTORE_KINDS) switches[kind.switch] = argv.includes(kind.flag);
  return switches;
}

/**
 * The agent's switches as they take effect: only with `--acp`, since a plain run has no client to ask again and
 * keeping a call open there would leave the session waiting for ever.
 */
export function effectiveRestoreSwitches(acp: boolean, switches: Partial<RestoreSwitches>): RestoreSwitches {
  const effective = {} as RestoreSwitches;
  for (const kind of RESTORE_KINDS) effective[kind.switch] = acp && switches[kind.switch] === true;
  return effective;
}
