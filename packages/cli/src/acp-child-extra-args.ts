// Flags the daemon forwards to every ACP child it spawns, so a child behaves like the daemon was told to.
// Order is part of the contract (docs/restore.md "The switches"); an empty list is `undefined`, not [].

export interface AcpChildForwardedFlags {
  experimentalLsp?: boolean;
  restoreAskUserQuestion?: boolean;
  restorePendingApprovals?: boolean;
}

export function acpChildExtraArgs(flags: AcpChildForwardedFlags): string[] | undefined {
  const args: string[] = [];
  if (flags.experimentalLsp) args.push("--experimental-lsp");
  if (flags.restoreAskUserQuestion) args.push("--restore-ask-user-question");
  if (flags.restorePendingApprovals) args.push("--restore-pending-approvals");
  return args.length > 0 ? args : undefined;
}
