// How a failed daemon call reads to a person, and which failures mean the daemon lost the session.
import { ApiError, UnreachableError } from "./api.js";

export function describe(error: unknown): string {
  if (error instanceof UnreachableError) return "the daemon cannot be reached";
  if (error instanceof ApiError) return error.code ? `${error.message} (${error.code})` : error.message;
  return error instanceof Error ? error.message : String(error);
}

/** The daemon no longer has the session live (it restarted): reloading it brings it back. */
export function isSessionLost(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404 && error.code === "session_not_found";
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

export function isUnreachable(error: unknown): boolean {
  return error instanceof UnreachableError;
}
