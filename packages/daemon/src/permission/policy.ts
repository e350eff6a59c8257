import { z } from "zod";
import { DAEMON_OPTION_SPECS, PERMISSION_POLICIES } from "../option-specs.js";

/**
 * Who may answer a permission request (`--permission-policy`):
 * - `first-responder`: the first valid vote from any client wins (default);
 * - `designated`: only the client whose prompt caused the request;
 * - `consensus`: a quorum of the clients attached when the request was issued;
 * - `local-only`: only votes arriving over a loopback socket.
 */
export const PermissionPolicy = z.enum(PERMISSION_POLICIES);
export type PermissionPolicy = z.infer<typeof PermissionPolicy>;

export const DEFAULT_PERMISSION_POLICY: PermissionPolicy = DAEMON_OPTION_SPECS.permissionPolicy.default;

/** Why a policy refused a vote (the only two values clients of the reference accept). */
export type ForbiddenReason = "designated_mismatch" | "remote_not_allowed";
