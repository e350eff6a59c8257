// What the session operations share: the options a SessionService was built with and the collaborators
// it built from them. One per service; each operation file (create, restore, prompts, votes, ending)
// takes it as its first argument, so the service itself stays a thin facade.
import type { ChildSupervisor } from "../bridge/child-supervisor.js";
import type { PermissionMediator } from "../permission/mediator.js";
import type { SessionStore } from "../persisted/session-store.js";
import type { SessionRegistry } from "./session-registry.js";
import type { SessionServiceOptions } from "./session-service-options.js";

export type SessionContext = {
  readonly options: SessionServiceOptions;
  /** The daemon's workspace, resolved. */
  readonly workspace: string;
  readonly registry: SessionRegistry;
  readonly mediator: PermissionMediator;
  readonly children: ChildSupervisor;
  readonly store: SessionStore;
  readonly newId: () => string;
};
