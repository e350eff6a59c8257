// What the daemon answers about itself, and how every error looks (docs/protocol.md "Connecting").
import { z } from "zod";

/** `GET /health`: liveness only (answered before authentication, and before the app has loaded). */
export const HealthResponse = z.object({ status: z.literal("ok") });
export type HealthResponse = z.infer<typeof HealthResponse>;

/** Every error: a message, a stable `code` where a client may act on it, and context fields. */
export const ErrorBody = z.looseObject({ error: z.string(), code: z.string().optional() });
export type ErrorBody = z.infer<typeof ErrorBody>;

/** `GET /capabilities`: what this daemon speaks, so clients negotiate instead of probing. */
export const CapabilitiesResponse = z.object({
  v: z.literal(1),
  protocolVersions: z.object({ current: z.string(), supported: z.array(z.string()) }),
  mode: z.string(),
  /** Feature tags, named like the reference daemon's where the feature is the same. */
  features: z.array(z.string()),
  workspaceCwd: z.string(),
  transports: z.array(z.string()),
  policy: z.object({ permission: z.string() }),
  limits: z.record(z.string(), z.number()),
});
export type CapabilitiesResponse = z.infer<typeof CapabilitiesResponse>;

/** `GET /daemon/status`: diagnostics for operators; fields may grow. */
export const DaemonStatusResponse = z.looseObject({
  v: z.literal(1),
  pid: z.number(),
  node: z.string(),
  startedAt: z.string(),
  uptimeMs: z.number(),
  workspaceCwd: z.string(),
  /** Where sessions are stored, without secrets: `jsonl:<folder>` or the PostgreSQL URL, password redacted. */
  storage: z.string().optional(),
});
export type DaemonStatusResponse = z.infer<typeof DaemonStatusResponse>;

/** The answer of a vote the daemon took (200), and of the routes that answer nothing else. */
export const EmptyResponse = z.object({});
export type EmptyResponse = z.infer<typeof EmptyResponse>;
