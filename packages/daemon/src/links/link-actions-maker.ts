// The notifier's `actionsFor`: the signed answer actions of one waiting notification, made with the daemon's
// link key (read again if it was rotated). Never throws: a notification without actions is still sent.
import { randomBytes } from "node:crypto";
import type { NotifyAction, OfferedPermissionOption } from "@qwen-daemon/core/protocol";
import type { Clock } from "../events/clock.js";
import type { NotifyEvent } from "../notify/notify-event.js";
import { signCapability } from "./capability.js";
import { linkChoices, signedActions } from "./link-actions.js";
import type { LinkKey } from "./link-key.js";

export type LinkActionsDeps = {
  key: LinkKey;
  base: () => string;
  ttlMs: number;
  clock: Clock;
  log: (line: string) => void;
};

export function linkActionsMaker(deps: LinkActionsDeps) {
  let warned = false;
  return (event: NotifyEvent, offered: readonly OfferedPermissionOption[]): NotifyAction[] => {
    const { toolCallId } = event;
    if (toolCallId === undefined) return [];
    const choices = linkChoices(event, offered);
    if (choices.length === 0) return [];
    const key = deps.key.current();
    if (key === undefined) {
      if (!warned)
        deps.log(`qwen serve: no answer-link key at ${deps.key.path}; notifications carry no answer links`);
      warned = true;
      return [];
    }
    return signedActions({ sessionId: event.sessionId, toolCallId }, choices, {
      base: deps.base(),
      ttlMs: deps.ttlMs,
      nowMs: deps.clock.now(),
      nonce: () => randomBytes(12).toString("base64url"),
      sign: (capability) => signCapability(key, capability),
    });
  };
}
