// ACP session config options (`session/set_config_option`): the approval mode as option "mode" and the
// model as option "model". Building the options and checking a requested value are pure; the session
// applies a valid choice.
import { RequestError, type SessionConfigOption } from "@agentclientprotocol/sdk";
import { APPROVAL_MODES, type ApprovalMode, type ModelEntry } from "@qwen-daemon/core";
import { isApprovalMode, modeInfo } from "./session-modes.js";

export const ConfigOptionId = { mode: "mode", model: "model" } as const;

export interface ModelList {
  readonly defaultId: string;
  readonly entries: readonly ModelEntry[];
}

export function configOptions(
  state: { mode: ApprovalMode; model: string | undefined },
  models: ModelList,
): SessionConfigOption[] {
  return [
    {
      id: ConfigOptionId.mode,
      name: "Approval mode",
      description: "Which tool calls ask for your approval",
      category: "mode",
      type: "select",
      currentValue: state.mode,
      options: APPROVAL_MODES.map((id) => ({ value: id, ...modeInfo(id) })),
    },
    {
      id: ConfigOptionId.model,
      name: "Model",
      description: "The model the next request goes to",
      category: "model",
      type: "select",
      currentValue: state.model ?? models.defaultId,
      options: models.entries.map((m) => ({
        value: m.id,
        name: m.name,
        ...(m.description ? { description: m.description } : {}),
      })),
    },
  ];
}

export type ConfigChoice = { kind: "mode"; mode: ApprovalMode } | { kind: "model"; model: string };

/** What a set_config_option request asks for, or an invalid-params error naming what is wrong. */
export function configChoiceOf(
  params: { configId: string; value: unknown; type?: unknown },
  models: ModelList,
): ConfigChoice {
  const { configId, value } = params;
  if (configId !== ConfigOptionId.mode && configId !== ConfigOptionId.model) {
    throw RequestError.invalidParams(
      { configId },
      `Unknown config option: ${configId} (this agent has "mode" and "model")`,
    );
  }
  if (typeof value !== "string") {
    throw RequestError.invalidParams({ configId, value }, `Config option "${configId}" takes a string value`);
  }
  if (configId === ConfigOptionId.mode) {
    if (!isApprovalMode(value))
      throw RequestError.invalidParams(
        { configId, value },
        `Unknown mode: ${value} (one of ${APPROVAL_MODES.join(", ")})`,
      );
    return { kind: "mode", mode: value };
  }
  if (!models.entries.some((m) => m.id === value))
    throw RequestError.invalidParams(
      { configId, value },
      `Unknown model: ${value} (one of ${models.entries.map((m) => m.id).join(", ")})`,
    );
  return { kind: "model", model: value };
}
