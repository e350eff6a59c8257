// How many of this process's file descriptors are open on a file (Linux: /proc/self/fd): tests of the
// journals' kept writers check that a session's writer is open while it is live and closed once it ends.
import { readdirSync, readlinkSync } from "node:fs";
import { join } from "node:path";

export function openFds(path: string): number {
  return readdirSync("/proc/self/fd").filter((fd) => {
    try {
      return readlinkSync(join("/proc/self/fd", fd)) === path;
    } catch {
      return false; // closed meanwhile (the descriptor readdir itself used)
    }
  }).length;
}
