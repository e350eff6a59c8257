// Flags the daemon forwards to every ACP child it spawns, so a child behaves like the daemon was told to.
// Order is part of the contract (docs/restore.md "The switches"): `--experimental-lsp`, then the restore
// flags in the order of the restore-kind table; an empty list is `undefined`, not [].
import { type RestoreSwitches, restoreFlagArgs } from "@qwen-daemon/core/restore-kinds";

export interface AcpChildForwardedFlags extends Partial<RestoreSwitches> {
  experimentalLsp?: boolean;
}

export function acpChildExtraArgs(flags: AcpChildForwardedFlags): string[] | undefined {
  const args = [...(flags.experimentalLsp ? ["--experimental-lsp"] : []), ...restoreFlagArgs(flags)];
  return args.length > 0 ? args : undefined;
}
