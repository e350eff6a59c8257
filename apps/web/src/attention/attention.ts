// When and how to tell a person who is not looking that the agent waits for them: a browser notification
// for a question or approval that arrives while the tab is hidden, if they allowed notifications. Pure: the
// page's state comes in, a notification (or nothing) goes out.
import { type Interaction, waitingText } from "../interactions/interaction.js";

export type NotificationPermissionState = "unsupported" | "default" | "granted" | "denied";

export type PageNotification = { title: string; body: string; tag: string };

export function notificationFor(
  interaction: Interaction,
  session: { id: string; title: string },
  page: { hidden: boolean; permission: NotificationPermissionState },
): PageNotification | undefined {
  if (!page.hidden || page.permission !== "granted") return undefined;
  const title =
    interaction.kind === "question"
      ? interaction.restored
        ? "The agent is asking you again"
        : "The agent asks you"
      : "The agent asks for your approval";
  return {
    title,
    body: `${session.title}: ${waitingText(interaction)}`.slice(0, 300),
    // One notification per waiting question: the same id the daemon's notifications use (session + tool call).
    tag: `${session.id}:${interaction.toolCallId ?? interaction.requestId}`,
  };
}
