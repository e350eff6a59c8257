// Public API of the agent runtime: the chat, the turn loop and the session the ACP child drives.
export * from "./agent-session.js";
export type { GivenAnswer } from "./answered-batch.js";
export * from "./chat.js";
export * from "./contract.js";
export type { TurnTools } from "./tool-batch.js";
export * from "./tool-result-texts.js";
export { DEFAULT_MAX_TURNS, runTurn, type TurnDeps, type TurnOutcome, type TurnStart } from "./turn-loop.js";
export type { TurnRecorder, TurnResultData } from "./turn-recorder.js";
