// What the turn loop writes down as it goes. The session backs it with the transcript; every method
// resolves only once the record is written (durable ones fsynced), so the loop can order side effects
// after durability: a question's functionCall is on disk before the question is shown.
import type { Content } from "../content.js";
import type { Usage } from "../model/provider.js";
import type { ToolCallResult, ToolStartedData } from "../transcript/records.js";
import type { StopReason } from "./contract.js";

/** The `data` of the `turn_result` system record that ends every turn. */
export interface TurnResultData {
  /** Absent when the turn failed (see `error`). */
  stopReason?: StopReason;
  /** Model requests the turn made. */
  modelRequests: number;
  /** Set when the question batch ended unattended and nothing was recorded for it. */
  unattended?: "timeout" | "session_closed" | "aborted";
  error?: { kind: string; message: string; status?: number };
}

export interface TurnRecorder {
  /** A user message (durable). */
  user(message: Content): Promise<void>;
  /**
   * A model reply (durable). `uuid`: the record's uuid, the reply's message id (see AgentEvent); `usage`: the
   * provider's token counts for the request, kept with the reply so a later process can add them up.
   */
  assistant(message: Content, reply?: { uuid?: string; usage?: Usage }): Promise<void>;
  /** One call's result; `message` is a user entry holding its functionResponse (durable). */
  toolResult(message: Content, result: ToolCallResult): Promise<void>;
  turnResult(data: TurnResultData): Promise<void>;
  /**
   * The write-ahead start record of a tool that can need an approval (durable), right before it runs; false
   * when it was not written because the host is gone (the tool must not run then). Only when tool starts are
   * recorded (`--restore-pending-approvals`).
   */
  toolStarted?(data: ToolStartedData): Promise<boolean>;
}
