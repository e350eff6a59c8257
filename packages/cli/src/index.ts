// Public API of @qwen-daemon/cli (the binary is dist/bin.js).

export {
  type AgentModeFlags,
  effectiveRestoreAskUserQuestion,
  effectiveRestorePendingApprovals,
  parseFastAcpArgs,
} from "./acp-args.js";
export { type AcpChildForwardedFlags, acpChildExtraArgs } from "./acp-child-extra-args.js";
export { parseServeArgs, type ServeArgsResult } from "./serve-args.js";
export { SERVE_DEFAULTS, SERVE_FLAGS, type ServeFlags } from "./serve-flags.js";
