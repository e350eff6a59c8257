// @qwen-daemon/daemon/boot: the part of the daemon that loads in milliseconds (node builtins only). The cli binds
// the socket with it first, starts the workspace's ACP child (node:child_process and node:stream only), then
// loads the rest and passes the bound socket and the running child to `startDaemon`.

export { childEnvironment, spawnChildChannel } from "../bridge/spawn-channel.js";
export { answersEarly, EARLY_HEALTH_BODY, type EarlyRequest } from "./early-health.js";
export { type Bind, type EarlyServer, listenEarly } from "./early-server.js";
