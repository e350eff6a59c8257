// The size a value takes in the daemon's buffer budget: its JSON's UTF-8 bytes, which is what the daemon
// would send of it (an approximation of its heap size, like the event ring's count of its SSE text).
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? "", "utf8");
}
