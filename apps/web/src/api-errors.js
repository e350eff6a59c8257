// How the page reads a failed daemon call: a line of text for the user, and "the session is gone".
import { ApiError } from "./api.js";

/**
 * The daemon answered "no such session": it restarted (or the session was closed) since we loaded it.
 * @param {unknown} error
 */
export function isSessionLost(error) {
  return error instanceof ApiError && error.status === 404 && error.code === "session_not_found";
}

/** @param {unknown} error */
export function describe(error) {
  if (error instanceof ApiError) return error.code ? `${error.message} (${error.code})` : error.message;
  return error instanceof Error ? error.message : String(error);
}
