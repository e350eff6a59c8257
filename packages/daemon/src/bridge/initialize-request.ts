// The ACP `initialize` request the daemon sends to every child it starts. One definition for both senders:
// the connection (child-connection.ts) and the boot side, which writes it to the prespawned child before
// the daemon's modules have loaded (pre-initialized-channel.ts). Type imports only: the boot side loads node
// builtins only, so the protocol version is a literal here and a test pins it to the ACP SDK's.
import type { InitializeRequest } from "@agentclientprotocol/sdk";

/** ACP protocol version 1 (`acp.PROTOCOL_VERSION` of @agentclientprotocol/sdk). */
export const ACP_PROTOCOL_VERSION = 1;

export const INITIALIZE_METHOD = "initialize";

/**
 * What the daemon handles beyond plain ACP (core/protocol meta.ts spells the keys; a test pins them equal):
 * it answers a question's permission request with `answers`, and it sends the restore prompt itself.
 */
export const QWEN_CLIENT_CAPABILITIES_META = {
  "qwen.daemon.questionAnswers": true,
  "qwen.daemon.restorePrompt": true,
} as const;

export const INITIALIZE_PARAMS: InitializeRequest = {
  protocolVersion: ACP_PROTOCOL_VERSION,
  clientCapabilities: {
    fs: { readTextFile: false, writeTextFile: false },
    terminal: false,
    _meta: QWEN_CLIENT_CAPABILITIES_META,
  },
  clientInfo: { name: "qwen-daemon", version: "0.1.0" },
};
