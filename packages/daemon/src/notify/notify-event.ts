// What a notification receiver gets (`--notify-command` on stdin, `--notify-webhook` as the POST body): one
// JSON object per event, defined once here. `id` is stable: the same waiting question or approval (session +
// tool call) always has the same id, also when a restored daemon asks it again, so a receiver can
// deduplicate. Building it from a daemon event is pure.
import {
  DaemonEventType,
  isQuestionToolCall,
  NotifyAction,
  type OfferedPermissionOption,
  toolCallQuestions,
} from "@qwen-daemon/core/protocol";
import { z } from "zod";
import type { DaemonEvent } from "../events/daemon-event.js";

export const NotifyEventType = z.enum([
  "question_waiting",
  "approval_waiting",
  "turn_completed",
  "turn_failed",
]);
export type NotifyEventType = z.infer<typeof NotifyEventType>;

export const NotifyEvent = z.object({
  v: z.literal(1),
  /** `<sessionId>:<toolCallId>` for a waiting question or approval, `<sessionId>:turn:<promptId>` for a turn. */
  id: z.string(),
  type: NotifyEventType,
  /** One line a person reads: the question, "Run: npm test", "Edit notes.md", "The agent finished". */
  title: z.string(),
  sessionId: z.string(),
  sessionTitle: z.string().optional(),
  workspace: z.string(),
  /** The web client's page for the session. */
  url: z.string(),
  /** When it started waiting, or when the turn ended (ISO 8601). */
  at: z.string(),
  /** Asked again by a restore after the daemon restarted (the person may have been told before). */
  restored: z.boolean(),
  requestId: z.string().optional(),
  toolCallId: z.string().optional(),
  promptId: z.string().optional(),
  tool: z.string().optional(),
  questions: z
    .array(
      z.object({
        question: z.string(),
        header: z.string().optional(),
        options: z.array(z.string()),
        multiSelect: z.boolean(),
      }),
    )
    .optional(),
  command: z.string().optional(),
  cwd: z.string().optional(),
  paths: z.array(z.string()).optional(),
  stopReason: z.string().optional(),
  error: z.object({ message: z.string(), code: z.string().optional() }).optional(),
  /** One-tap answers and the answer page (docs/notifications.md); absent when links are off. */
  actions: z.array(NotifyAction).optional(),
});
export type NotifyEvent = z.infer<typeof NotifyEvent>;

/** The session an event belongs to, as the notifier needs it. */
export type NotifySource = {
  sessionId: string;
  workspace: string;
  displayName?: string | undefined;
  /** The event belongs to a restore prompt (a question asked again after a restart). */
  restored: boolean;
};

/** The web client's link to a session: `<base>/#session=<id>` (the fragment never reaches a server log). */
export function sessionLink(base: string, sessionId: string): string {
  return `${base.replace(/\/+$/, "")}/#session=${encodeURIComponent(sessionId)}`;
}

/**
 * The notification for a daemon event, or undefined for events nobody is told about. `linkBase` is the
 * address people open the web client at.
 */
export function notifyEventFor(
  source: NotifySource,
  event: DaemonEvent,
  linkBase: string,
): NotifyEvent | undefined {
  const base = {
    v: 1 as const,
    sessionId: source.sessionId,
    ...(source.displayName ? { sessionTitle: source.displayName } : {}),
    workspace: source.workspace,
    url: sessionLink(linkBase, source.sessionId),
    at: new Date(event._meta.serverTimestamp).toISOString(),
    restored: source.restored,
    ...(event.promptId !== undefined ? { promptId: event.promptId } : {}),
  };
  const d = event.data;
  if (event.type === DaemonEventType.permissionRequest) {
    const call = record(d.toolCall);
    const toolCallId = text(call.toolCallId);
    const requestId = text(d.requestId);
    if (requestId === undefined) return undefined;
    const meta = record(call._meta);
    const tool = text(meta.toolName);
    const questions = questionsOf(meta, call);
    const id = `${source.sessionId}:${toolCallId ?? requestId}`;
    const common = {
      ...base,
      id,
      requestId,
      ...(toolCallId !== undefined ? { toolCallId } : {}),
      ...(tool !== undefined ? { tool } : {}),
    };
    if (questions !== undefined) {
      const title = questions.map((q) => q.question).join(" ") || "The agent asks you a question";
      return { ...common, type: "question_waiting", title, questions };
    }
    const input = record(call.rawInput);
    const command = text(input.command);
    const paths = pathsOf(call);
    const title = command
      ? `Run: ${command}`
      : (text(call.title) ?? (tool ? `Allow ${tool}` : "The agent asks for your approval"));
    return {
      ...common,
      type: "approval_waiting",
      title,
      ...(command !== undefined ? { command, cwd: resolveCwd(source.workspace, text(input.directory)) } : {}),
      ...(paths.length > 0 ? { paths } : {}),
    };
  }
  const promptId = event.promptId ?? text(d.promptId);
  if (promptId === undefined) return undefined;
  if (event.type === DaemonEventType.turnComplete) {
    const stopReason = text(d.stopReason);
    return {
      ...base,
      id: `${source.sessionId}:turn:${promptId}`,
      type: "turn_completed",
      title: "The agent finished",
      promptId,
      ...(stopReason !== undefined ? { stopReason } : {}),
    };
  }
  if (event.type === DaemonEventType.turnError) {
    const message = text(d.message) ?? "unknown error";
    const code = text(d.code);
    return {
      ...base,
      id: `${source.sessionId}:turn:${promptId}`,
      type: "turn_failed",
      title: `The turn failed: ${message}`,
      promptId,
      error: { message, ...(code !== undefined ? { code } : {}) },
    };
  }
  return undefined;
}

/** The options a permission request event offers (for the answer actions), as the child sent them. */
export function offeredOptionsOf(event: DaemonEvent): OfferedPermissionOption[] {
  if (event.type !== DaemonEventType.permissionRequest || !Array.isArray(event.data.options)) return [];
  return event.data.options.flatMap((o) => {
    const option = record(o);
    const optionId = text(option.optionId);
    const kind = text(option.kind);
    return optionId !== undefined && kind !== undefined
      ? [{ optionId, kind, name: typeof option.name === "string" ? option.name : "" }]
      : [];
  });
}

function questionsOf(meta: Record<string, unknown>, call: Record<string, unknown>): NotifyEvent["questions"] {
  if (!isQuestionToolCall({ _meta: meta })) return undefined;
  const raw = toolCallQuestions({ _meta: meta, rawInput: call.rawInput });
  if (raw === undefined) return [];
  return raw.flatMap((q) => {
    const item = record(q);
    const question = text(item.question);
    if (question === undefined) return [];
    const header = text(item.header);
    const options = Array.isArray(item.options)
      ? item.options.flatMap((o) => {
          const label = text(record(o).label);
          return label === undefined ? [] : [label];
        })
      : [];
    return [
      {
        question,
        ...(header !== undefined ? { header } : {}),
        options,
        multiSelect: item.multiSelect === true,
      },
    ];
  });
}

function pathsOf(call: Record<string, unknown>): string[] {
  if (!Array.isArray(call.locations)) return [];
  return call.locations.flatMap((l) => {
    const path = text(record(l).path);
    return path === undefined ? [] : [path];
  });
}

function resolveCwd(workspace: string, directory: string | undefined): string {
  if (directory === undefined || directory === "") return workspace;
  if (directory.startsWith("/")) return directory;
  return `${workspace.replace(/\/+$/, "")}/${directory}`;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}
