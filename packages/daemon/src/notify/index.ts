// Notifications from the daemon (`--notify-command`, `--notify-webhook`): the public pieces and the one
// function the daemon's wiring calls.
import type { Clock } from "../events/clock.js";
import { Notifier, type NotifierOptions } from "./notifier.js";
import type { NotifyOutbox } from "./outbox.js";
import { commandSender, type Sender, webhookSender } from "./senders.js";

export { Notifier, type NotifierStats } from "./notifier.js";
export {
  NotifyEvent,
  type NotifySource,
  notifyEventFor,
  offeredOptionsOf,
  sessionLink,
} from "./notify-event.js";
export { decodeOutboxEntry, memoryOutbox, type NotifyOutbox, notifyOutbox } from "./outbox.js";
export { commandSender, type Sender, webhookSender, webhookSignature } from "./senders.js";

export type NotifyOptions = {
  notifyCommand?: readonly string[] | undefined;
  notifyWebhook?: string | undefined;
  notifySecret?: string | undefined;
  notifyDelayMs: number;
};

/** The notifier the options ask for, or undefined when no receiver is configured. */
export function notifierFromOptions(
  options: NotifyOptions,
  io: {
    clock: Clock;
    log: (line: string) => void;
    linkBase: () => string;
    outbox: NotifyOutbox;
    actionsFor?: NotifierOptions["actionsFor"];
  },
): Notifier | undefined {
  const senders: Sender[] = [];
  if (options.notifyCommand) senders.push(commandSender(options.notifyCommand));
  if (options.notifyWebhook)
    senders.push(webhookSender(options.notifyWebhook, { secret: options.notifySecret }));
  if (senders.length === 0) return undefined;
  return new Notifier({
    senders,
    outbox: io.outbox,
    delayMs: options.notifyDelayMs,
    clock: io.clock,
    log: io.log,
    linkBase: io.linkBase,
    actionsFor: io.actionsFor,
  });
}
