// The HTTP surface: middleware in order (host, origin, pre-auth routes, auth), then the API routes, and
// the one error handler. Pure wiring: everything it serves comes in through `AppDeps`.

import { pickRestoreSwitches } from "@qwen-daemon/core/restore-kinds";
import { Hono } from "hono";
import type { BufferBudget } from "./budget/buffer-budget.js";
import type { Clock } from "./events/clock.js";
import { DEFAULT_HEARTBEAT_MS } from "./events/sse-frame.js";
import { StreamGate } from "./events/stream-gate.js";
import { bearerAuth } from "./http/bearer-auth.js";
import { bodyBudget } from "./http/body-budget.js";
import { bodyDeadline } from "./http/body-deadline.js";
import { ByteBudget } from "./http/byte-budget.js";
import { notFound } from "./http/errors.js";
import { hostGuard } from "./http/host-guard.js";
import { bodyCap } from "./http/json-body.js";
import { createErrorHandler } from "./http/on-error.js";
import { originGuard } from "./http/origin-guard.js";
import type { LinkAnswers } from "./links/link-answers.js";
import { capabilitiesRoutes } from "./routes/capabilities.js";
import { daemonStatusRoutes } from "./routes/daemon-status.js";
import { eventRoutes } from "./routes/events.js";
import { healthRoutes } from "./routes/health.js";
import { linkRoutes } from "./routes/links.js";
import { permissionRoutes } from "./routes/permission.js";
import { promptRoutes } from "./routes/prompts.js";
import { sessionNameRoutes } from "./routes/session-name.js";
import { sessionRoutes } from "./routes/sessions.js";
import { statusRoutes } from "./routes/status.js";
import { transcriptRoutes } from "./routes/transcript.js";
import { webStatic } from "./routes/web.js";
import type { Sessions } from "./sessions/sessions.js";
import { daemonStatus, type StartupTimings } from "./status/daemon-status.js";

export type AppDeps = {
  sessions: Sessions;
  /** The bind host name (decides whether the Host allowlist applies). */
  hostname: string;
  /** Bearer token every request must present; undefined = open (loopback without --require-auth). */
  token: string | undefined;
  allowOrigins: readonly string[];
  maxConnections: number;
  /** Open SSE streams across sessions (0 = no cap); see StreamGate. */
  maxEventStreams: number;
  /** Bytes of request bodies received and handled at once (see ByteBudget); default 64 MiB. */
  maxBodyBytesInFlight?: number;
  /**
   * The daemon's one buffer budget: bodies being handled count against it (pushing replay data out), and
   * never take more than all of it.
   */
  buffers?: BufferBudget;
  /** Time a request's body has to arrive after its headers (0 = none; see bodyDeadline). */
  requestTimeoutMs?: number;
  webRoot?: string | undefined;
  clock: Clock;
  /** SSE heartbeat period (default 15 s; 0 disables, for tests). */
  heartbeatMs?: number;
  startedAt: number;
  startup?: StartupTimings;
  log: (line: string) => void;
  /** Answer links from notifications (`/a/:capability`); absent: those paths are 404. */
  links?: LinkAnswers | undefined;
};

const DEFAULT_BODY_BYTES_IN_FLIGHT = 64 * 1024 * 1024;

export function createApp(deps: AppDeps): Hono {
  const { sessions } = deps;
  const bodies = new ByteBudget(
    Math.min(
      deps.maxBodyBytesInFlight ?? DEFAULT_BODY_BYTES_IN_FLIGHT,
      deps.buffers?.capacity ?? Number.POSITIVE_INFINITY,
    ),
  );
  const app = new Hono();
  app.onError(createErrorHandler(deps.log));
  app.notFound(() => notFound().getResponse());

  app.use(hostGuard({ bindHostname: deps.hostname }));
  // Before the origin and bearer checks: the capability in the path is the credential (routes/links.ts).
  if (deps.links !== undefined) app.route("/", linkRoutes(deps.links));
  app.use(originGuard({ allowOrigins: deps.allowOrigins }));
  app.route("/", healthRoutes());
  if (deps.webRoot !== undefined) app.use(webStatic(deps.webRoot));
  app.use(bearerAuth({ token: deps.token }));
  app.use(bodyDeadline(deps.requestTimeoutMs ?? 0, deps.clock));
  app.use(bodyBudget(bodies, deps.buffers));
  // After the budget: a body without a length is read whole here, inside the share it reserved.
  app.use(bodyCap());

  app.route(
    "/",
    capabilitiesRoutes(() => ({
      workspaceCwd: sessions.workspace,
      permissionPolicy: sessions.mediator.policy,
      ...pickRestoreSwitches(sessions.options),
      authRequired: deps.token !== undefined,
      allowOrigins: deps.allowOrigins,
      limits: {
        ...sessions.limits,
        maxConnections: deps.maxConnections,
        maxEventStreams: deps.maxEventStreams,
      },
    })),
  );
  app.route(
    "/",
    daemonStatusRoutes(() =>
      daemonStatus(sessions, {
        startedAt: deps.startedAt,
        now: deps.clock.now(),
        startup: deps.startup ?? {},
        requestBodies: bodies.snapshot(),
        ...(deps.buffers !== undefined ? { buffers: deps.buffers.snapshot() } : {}),
      }),
    ),
  );
  app.route("/", sessionRoutes(sessions));
  app.route("/", promptRoutes(sessions));
  app.route("/", sessionNameRoutes(sessions));
  app.route("/", statusRoutes(sessions));
  app.route("/", permissionRoutes(sessions));
  app.route("/", transcriptRoutes(sessions));
  app.route(
    "/",
    eventRoutes(sessions, {
      clock: deps.clock,
      heartbeatMs: deps.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
      streams: new StreamGate(deps.maxEventStreams),
    }),
  );
  return app;
}
