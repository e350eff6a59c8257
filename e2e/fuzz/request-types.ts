// The shapes the fuzz suite's request sources produce and the sender sends.

/** What the request must not do when the daemon accepts it (a 2xx would mean a refused action took effect). */
export type Guard = "vote_on_waiting_question" | "delete_victim" | "cancel_victim" | "detach_victim_client";

export type HostileRequest =
  | {
      kind: "http";
      method: string;
      path: string;
      headers: Record<string, string>;
      body?: string;
      /** Send only this many bytes of the body, then drop the connection. */
      abortAfter?: number;
      /** An SSE request: read the first bytes, then hang up. */
      stream?: boolean;
      guard?: Guard;
      note: string;
    }
  | { kind: "raw"; bytes: string; note: string };

export type FuzzTarget = {
  /** The session whose question waits for the whole run. */
  victim: string;
  /** The victim's clients: named only on requests that cannot change anything. */
  registered: readonly string[];
  /** The question waiting on the victim. */
  requestId: string;
  workspace: string;
};

export const JSON_HEADERS = { "content-type": "application/json" };
