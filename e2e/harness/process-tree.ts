// Finds and kills a whole process tree through /proc, so a test can SIGKILL a daemon *and* the ACP
// children it spawned (they live in their own process groups) in one instant, like a machine crash.
import { readdirSync, readFileSync } from "node:fs";

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Field 4 (ppid) follows the parenthesised command name, which may itself contain spaces.
    const afterName = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(afterName[1]);
  } catch {
    return undefined;
  }
}

export function descendantsOf(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    const ppid = parentOf(pid);
    if (ppid === undefined) continue;
    const list = children.get(ppid) ?? [];
    list.push(pid);
    children.set(ppid, list);
  }
  const out: number[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop() as number;
    for (const c of children.get(pid) ?? []) {
      out.push(c);
      stack.push(c);
    }
  }
  return out;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGKILLs root and every descendant; returns the pids it killed. */
export function killTree(root: number): number[] {
  const pids = [root, ...descendantsOf(root)];
  // Stop the parent first so it cannot respawn a child between the two kills.
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ESRCH") throw err;
    }
  }
  return pids;
}

/**
 * Resident memory of a live process from /proc/<pid>/status, in MB (2^20 bytes): now (VmRSS) and its peak
 * so far (VmHWM). For printed figures only; memory is never asserted in a test.
 */
export function residentMemoryMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(status)?.[1] ?? NaN);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}
