// GET /capabilities: what this daemon speaks, so clients can negotiate instead of probing.
import {
  type CapabilitiesResponse,
  HttpRoutes,
  RESTORE_KINDS,
  type RestoreSwitches,
} from "@qwen-daemon/core/protocol";
import { Hono } from "hono";
import type { PermissionPolicy } from "../permission/policy.js";
import { mount } from "./mount.js";

/** The restore switches (one per row of the restore-kind table: each on announces its feature) and the rest. */
export type CapabilitiesInfo = Partial<RestoreSwitches> & {
  workspaceCwd: string;
  permissionPolicy: PermissionPolicy;
  authRequired: boolean;
  allowOrigins: readonly string[];
  limits: {
    maxSessions: number;
    maxPendingPromptsPerSession: number;
    maxConnections: number;
    eventRingSize: number;
    permissionResponseTimeoutMs: number;
  };
};

/** Feature tags, named like the reference daemon's where the feature is the same. */
const BASE_FEATURES = [
  "health",
  "daemon_status",
  "capabilities",
  "session_create",
  "session_id_override",
  "session_scope_override",
  "session_load",
  "session_resume",
  "session_list",
  "session_prompt",
  "session_cancel",
  "session_continue",
  "session_events",
  "session_status",
  "session_close",
  "session_transcript",
  "pending_prompts",
  "client_identity",
  "client_heartbeat",
  "session_permission_vote",
  "permission_vote",
  "permission_mediation",
] as const;

export function capabilitiesDocument(info: CapabilitiesInfo): CapabilitiesResponse {
  const features: string[] = [...BASE_FEATURES];
  for (const kind of RESTORE_KINDS) if (info[kind.switch] === true) features.push(kind.feature);
  if (info.authRequired) features.push("require_auth");
  if (info.allowOrigins.length > 0) features.push("allow_origin");
  return {
    v: 1,
    protocolVersions: { current: "v1", supported: ["v1"] },
    mode: "http-bridge",
    features,
    workspaceCwd: info.workspaceCwd,
    transports: ["rest"],
    policy: { permission: info.permissionPolicy },
    // maxSessionsPerWorkspace: the reference daemon's name for the same limit (one workspace here).
    limits: { ...info.limits, maxSessionsPerWorkspace: info.limits.maxSessions },
  };
}

export function capabilitiesRoutes(info: () => CapabilitiesInfo): Hono {
  const app = new Hono();
  mount(app, HttpRoutes.capabilities, () => capabilitiesDocument(info()));
  return app;
}
