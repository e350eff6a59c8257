// A channel factory that hands out one channel started ahead of time, then spawns as usual. `qwen serve`
// starts the workspace's ACP child right after its socket binds, while the daemon's own modules are still
// loading, so the child's boot overlaps the daemon's; the supervisor's first spawn then takes that child.
import type { ChannelFactory, ChildChannel } from "./channel.js";

export type PrespawnedChannel = {
  /** The channel, already running, for `workspace`. */
  channel: ChildChannel;
  workspace: string;
};

/**
 * `factory`, except that the first call for the prespawned channel's workspace returns that channel.
 * A prespawned child that has died by then is still handed out once: the supervisor sees it exit during
 * `initialize`, reports that, and the next use spawns a fresh one through `factory`.
 */
export function withPrespawnedChannel(
  prespawned: PrespawnedChannel,
  factory: ChannelFactory,
): ChannelFactory {
  let pending: ChildChannel | undefined = prespawned.channel;
  return (spec) => {
    const channel = pending;
    pending = undefined;
    if (channel !== undefined && spec.workspace === prespawned.workspace) return channel;
    if (channel !== undefined) channel.kill("SIGKILL"); // not for this workspace: nobody will use it
    return factory(spec);
  };
}
