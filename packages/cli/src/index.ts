// Public API of @qwen-daemon/cli (the binary is dist/bin.js).
export { acpChildExtraArgs, type AcpChildForwardedFlags } from "./acp-child-extra-args.js";
export { effectiveRestoreAskUserQuestion, parseFastAcpArgs, type AgentModeFlags } from "./acp-args.js";
export { parseServeArgs, type ServeArgsResult } from "./serve-args.js";
export { SERVE_DEFAULTS, SERVE_FLAGS, type ServeFlags } from "./serve-flags.js";
