// How much of a client's own input an error response may repeat back. Naming the offending value helps a
// client, but repeating it whole lets one request make the daemon write a response as large as the body it
// sent (several times over, when a message quotes it too).

/** Values up to this many characters are echoed as they came. */
export const MAX_ECHO_CHARS = 128;

/** `value`, or its first `max` characters and an ellipsis when it is longer. */
export function clipEcho(value: string, max = MAX_ECHO_CHARS): string {
  return value.length <= max ? value : `${value.slice(0, max)}…`;
}

/** `"value"` quoted for a message, clipped, with the full length named when it was clipped. */
export function quoteEcho(value: string, max = MAX_ECHO_CHARS): string {
  return value.length <= max ? `"${value}"` : `"${clipEcho(value, max)}" (${value.length} characters)`;
}
