// The daemon's SSE events as this client reads them (PROTOCOL.md "Events"). Kept loose on purpose: the
// client shows what it understands and ignores the rest, so a newer daemon never breaks an older page.
// (Issue 11 moves these shapes into one shared contract; until then this file is the client's only copy.)

/**
 * Wire data read defensively (every field checked before use) until issue 11's shared contract types it.
 */
// biome-ignore lint/suspicious/noExplicitAny: see above; the one place the client spells it
export type Loose = any;

export type DaemonEvent = {
  id?: number;
  v?: number;
  type: string;
  data?: Loose;
  promptId?: string;
  originatorClientId?: string;
};

/** One option a permission request offers (ACP options carry `name`; status snapshots carry `label`). */
export type PermissionOption = { optionId: string; name?: string; label?: string; kind?: string };

/** `permission_request` data: what the agent waits on. */
export type PermissionRequest = {
  requestId: string;
  sessionId?: string;
  toolCall?: Loose;
  options: PermissionOption[];
};
