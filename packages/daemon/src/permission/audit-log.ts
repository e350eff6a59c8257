import { RingBuffer } from "../events/ring-buffer.js";
import type { PermissionPolicy } from "./policy.js";

export type AuditKind = "requested" | "voted" | "forbidden" | "resolved" | "timeout";

/** One line of the permission audit trail (kept in memory, newest last). */
export type AuditEntry = {
  at: number;
  kind: AuditKind;
  sessionId: string;
  requestId: string;
  policy: PermissionPolicy;
  clientId?: string;
  remoteAddress?: string;
  /** The option voted for or chosen; absent on cancels. */
  optionId?: string;
  outcome?: "selected" | "cancelled";
  /** Forbidden reason, cancel reason, or `partial` for a consensus vote that did not decide. */
  reason?: string;
  /** `answer_journal` when a decision was replayed from the daemon's answer journal after a restart. */
  source?: string;
  /** Clients allowed to vote under consensus, as frozen at `requested`. */
  electorate?: readonly string[];
};

export const DEFAULT_AUDIT_CAPACITY = 1000;

/** Bounded audit trail: the oldest entries fall off, so a long-lived daemon stays flat in memory. */
export class PermissionAuditLog {
  readonly #ring: RingBuffer<AuditEntry>;

  constructor(capacity = DEFAULT_AUDIT_CAPACITY) {
    this.#ring = new RingBuffer(capacity);
  }

  record(entry: AuditEntry): void {
    this.#ring.push(entry);
  }

  entries(): readonly AuditEntry[] {
    return this.#ring.toArray();
  }
}
