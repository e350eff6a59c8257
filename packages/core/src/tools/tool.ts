// The tool contract shared by built-in tools, MCP tools and the turn loop.
import type { PendingOnDiskKind } from "../protocol/sessions.js";

/** Which confirmation a call needs before it runs; approval modes map these to ask / allow / deny. */
export type ConfirmationKind = "none" | "edit" | "exec" | "user_question";

/**
 * What a call of the tool waits for when a crash leaves it without a result, and so how a load treats it
 * (docs/restore.md): a question, or an approval of a command, an edit or an MCP tool, is asked again by the
 * restore kind that covers it (the `covers` of protocol/restore-kinds.ts); "none" waits for nobody, so a batch
 * cut off in such a call is repaired, never restored. Every tool declares one, so a new tool cannot fall
 * through a restore unnoticed.
 */
export type ToolRestoreClass = PendingOnDiskKind | "none";

export type ApprovalMode = "default" | "auto-edit" | "yolo" | "plan";

/** ACP tool kinds, used for UI hints. */
export type ToolUiKind =
  | "read"
  | "edit"
  | "delete"
  | "move"
  | "search"
  | "execute"
  | "think"
  | "fetch"
  | "other";

export interface ToolContext {
  /** Absolute workspace root; every path a tool touches is confined to it. */
  cwd: string;
  signal: AbortSignal;
  /** The id of the call being executed (a host may show what the tool does beside it). */
  callId?: string;
}

/** What describe() may use: only the workspace root, no signal (it must stay quick and synchronous). */
export type DescribeContext = Pick<ToolContext, "cwd">;

/** A tool's outcome. Exactly one of `output` / `error` is set; it becomes `functionResponse.response`. */
export type ToolResult = { output: string; error?: undefined } | { error: string; output?: undefined };

/** What a confirmation prompt shows about a call (ACP `toolCall` title/locations/content). */
export interface ToolCallDescription {
  title: string;
  uiKind: ToolUiKind;
  locations?: { path: string; line?: number }[];
  /** For edits: a diff the client can render. */
  diff?: { path: string; oldText: string | null; newText: string };
}

export interface Tool {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments, sent to the model. */
  readonly parameters: Record<string, unknown>;
  readonly confirmation: ConfirmationKind;
  readonly restoreClass: ToolRestoreClass;
  /** The exact validation error text for bad args, or undefined when they are fine. */
  validate(args: Record<string, unknown>): string | undefined;
  /**
   * `ctx` lets a tool resolve workspace-relative paths and read current content (the edit diff);
   * without it a tool describes the call from its args alone.
   */
  describe(args: Record<string, unknown>, ctx?: DescribeContext): ToolCallDescription;
  execute(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult>;
}
