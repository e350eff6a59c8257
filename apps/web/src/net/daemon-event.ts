// The daemon's events and wire shapes as this client reads them: the types are the contract's
// (@qwen-daemon/core/protocol, types only, so nothing of it is bundled but the few constants we use). The
// client reads them leniently (every field it uses is checked first), so a newer daemon never breaks an older
// page: a frame of a type it does not know is ignored, a field it does not know is passed over.
import type {
  DaemonEventFrame,
  InteractionOption,
  OfferedPermissionOption,
  PermissionRequestData,
  PermissionToolCall,
  SessionSummary as WireSessionSummary,
} from "@qwen-daemon/core/protocol";

/** A frame of the daemon's event stream (or of a load's replay, or of a transcript), narrowed by `type`. */
export type DaemonEvent = DaemonEventFrame;

/** An option as the client reads it: ACP options carry `name`; status snapshots carry `label`. */
export type PermissionOption = Pick<OfferedPermissionOption, "optionId"> &
  Partial<Pick<OfferedPermissionOption, "name" | "kind">> &
  Partial<Pick<InteractionOption, "label">>;

/** `permission_request` data as the client relies on it: the id and the options; the tool call as sent. */
export type PermissionRequest = Pick<PermissionRequestData, "requestId"> &
  Partial<Pick<PermissionRequestData, "sessionId">> & {
    toolCall?: Partial<PermissionToolCall>;
    options: PermissionOption[];
  };

/** A session of the workspace list: its id for sure, the rest when the daemon says. */
export type SessionSummary = Pick<WireSessionSummary, "sessionId"> &
  Partial<Omit<WireSessionSummary, "sessionId">>;
