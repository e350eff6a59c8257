export * from "./records.js";
