export * from "./contract.js";
