// @qwen-daemon/daemon/boot: the part of the daemon that loads in milliseconds (node:http only). The cli binds
// the socket with it first, then loads the rest and passes the bound socket to `startDaemon`.
export { answersEarly, EARLY_HEALTH_BODY, type EarlyRequest } from "./early-health.js";
export { type Bind, type EarlyServer, listenEarly } from "./early-server.js";
