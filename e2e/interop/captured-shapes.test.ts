// The reference daemon's captured wire shapes (captures/, recorded from qwen-code 0.24.4) read through our
// contract (@qwen-daemon/core/protocol): every field the reference sends that our contract names has the type
// our contract gives it, and the shapes both daemons send in full parse whole. So a client written against
// our contract (the web client, or anyone's) reads the reference daemon too, and a contract change that would
// part from the reference's shapes fails here. Reads the capture files only; no process is started.
import { readFileSync } from "node:fs";
import {
  AttachResponse,
  DaemonEvents,
  ErrorBody,
  type EventDefinition,
  eventDefinition,
  OfferedPermissionOption,
  PendingInteraction,
  PermissionRequestParams,
  PermissionResponse,
  PromptAccepted,
  SessionSummary,
  SessionUpdateParams,
} from "@qwen-daemon/core/protocol";
import { describe, expect, it } from "vitest";

const capture = (name: string) => readFileSync(new URL(`./captures/${name}`, import.meta.url), "utf8");

/** Each `data: {...}` line of an SSE capture, parsed. */
function sseFrames(text: string): Record<string, unknown>[] {
  return text
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
}

type Schema = EventDefinition["schema"];

/** Issues of `value` against `schema` with every field optional (what both sides send must agree in type). */
function typeConflicts(schema: Schema, value: unknown): string[] {
  const partial = "partial" in schema ? (schema as Schema & { partial(): Schema }).partial() : schema;
  const checked = partial.safeParse(value);
  return checked.success ? [] : checked.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
}

describe("the reference daemon's SSE frames", () => {
  const frames = [
    ...sseFrames(capture("ref-sse-ask-user-question.txt")),
    ...sseFrames(capture("ref-restore-load.txt")),
  ];

  it("share our envelope, and every event type we both send agrees with our schema", () => {
    const known = frames.filter((f) => eventDefinition(String(f.type)) !== undefined);
    expect(known.length).toBeGreaterThan(15);
    for (const frame of frames) {
      expect(frame.v, JSON.stringify(frame)).toBe(1);
      expect(typeof (frame._meta as { serverTimestamp?: unknown }).serverTimestamp).toBe("number");
    }
    for (const frame of known) {
      const definition = eventDefinition(String(frame.type));
      expect(typeConflicts(definition?.schema as Schema, frame.data), `${frame.type}`).toEqual([]);
    }
    // The types both daemons send, so this keeps reading something.
    const types = new Set(known.map((f) => f.type));
    for (const type of ["session_update", "permission_request", "permission_resolved", "turn_complete"])
      expect(types.has(type), type).toBe(true);
  });

  it("send the permission request and the replay in full under our schemas", () => {
    for (const frame of frames) {
      if (frame.type === DaemonEvents.permissionRequest.type)
        expect(DaemonEvents.permissionRequest.schema.safeParse(frame.data).success).toBe(true);
      if (frame.type === DaemonEvents.replayComplete.type)
        expect(DaemonEvents.replayComplete.schema.safeParse(frame.data).success).toBe(true);
    }
  });
});

describe("the reference daemon's HTTP answers", () => {
  it("create and prompt answer our AttachResponse and PromptAccepted", () => {
    const bodies = capture("ref-sse-ask-user-question.txt")
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const created = bodies.find((b) => "clientId" in b);
    const accepted = bodies.find((b) => "promptId" in b && "eventEpoch" in b);
    expect(AttachResponse.safeParse(created).success).toBe(true);
    expect(PromptAccepted.safeParse(accepted).success).toBe(true);
  });

  it("status and the session list agree with our SessionSummary; a waiting question parses whole", () => {
    const status = JSON.parse(capture("ref-status-waiting.txt").replace(/^#.*\n/, ""));
    expect(typeConflicts(SessionSummary, status)).toEqual([]);
    expect(status.pendingInteractions).toHaveLength(1);
    for (const interaction of status.pendingInteractions)
      expect(PendingInteraction.safeParse(interaction).success).toBe(true);
    const listing = capture("ref-restore-load.txt").match(/^\{"sessions":.*$/m)?.[0] as string;
    for (const summary of JSON.parse(listing).sessions)
      expect(typeConflicts(SessionSummary, summary)).toEqual([]);
  });

  it("every error is our ErrorBody", () => {
    const errors = capture("ref-vote.txt")
      .split("\n")
      .flatMap((line) => {
        const m = /^(\{.*\}) \[(\d{3})\]$/.exec(line);
        return m !== null && Number(m[2]) >= 400 ? [JSON.parse(m[1] as string)] : [];
      });
    expect(errors.length).toBeGreaterThan(5);
    for (const error of errors) expect(ErrorBody.safeParse(error).success, JSON.stringify(error)).toBe(true);
  });
});

describe("the reference daemon and child on ACP", () => {
  const messages = capture("ref-acp-child-exchange.txt")
    .split("\n")
    .flatMap((line) => {
      const m = /^(daemon->child|child->daemon) {2}(\{.*\})$/.exec(line);
      if (m === null) return [];
      try {
        return [{ dir: m[1], msg: JSON.parse(m[2] as string) as Record<string, unknown> }];
      } catch {
        return []; // a trimmed line ("{…}") is not JSON
      }
    });

  it("a permission request, its answer and the session updates parse under our schemas", () => {
    const request = messages.find((m) => m.msg.method === "session/request_permission");
    if (request === undefined) throw new Error("the capture has no session/request_permission");
    expect(PermissionRequestParams.safeParse(request.msg.params).success).toBe(true);
    const options = (request.msg.params as { options: unknown[] }).options;
    for (const option of options) expect(OfferedPermissionOption.safeParse(option).success).toBe(true);
    const answer = messages.find(
      (m) => m.dir === "daemon->child" && m.msg.id === request.msg.id && "result" in m.msg,
    );
    expect(PermissionResponse.safeParse(answer?.msg.result).success).toBe(true);
    const updates = messages.filter((m) => m.msg.method === "session/update");
    expect(updates.length).toBeGreaterThan(3);
    for (const update of updates) expect(SessionUpdateParams.safeParse(update.msg.params).success).toBe(true);
  });
});
