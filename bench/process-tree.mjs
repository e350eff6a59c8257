// Process facts read from /proc (Linux only): a process's descendants, its resident memory, and a
// whole-tree SIGKILL that stands in for a machine crash (the daemon's ACP children live in their own
// process groups, so killing the daemon's group alone would leave them running).
import { readdirSync, readFileSync } from "node:fs";

function parentOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Field 4 (ppid) follows the parenthesised command name, which may itself contain spaces.
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch (error) {
    if (error.code === "ENOENT" || error.code === "ESRCH") return undefined; // exited while we looked
    throw error;
  }
}

/** Every live descendant of `root` (children, grandchildren, ...). */
export function descendantsOf(root) {
  const children = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const ppid = parentOf(Number(name));
    if (ppid === undefined) continue;
    const list = children.get(ppid) ?? [];
    list.push(Number(name));
    children.set(ppid, list);
  }
  const out = [];
  const stack = [root];
  while (stack.length > 0) {
    for (const child of children.get(stack.pop()) ?? []) {
      out.push(child);
      stack.push(child);
    }
  }
  return out;
}

/** SIGKILLs root first (so it cannot respawn a child), then every descendant found beforehand. */
export function killTree(root) {
  const pids = [root, ...descendantsOf(root)];
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch (error) {
      if (error.code !== "ESRCH") throw error;
    }
  }
  return pids;
}

export function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Resident set size in bytes (VmRSS of /proc/<pid>/status). 0 for a zombie (it has no VmRSS line: it
 * exited and holds no memory, only its exit status) and for a process that is gone by the time we look.
 */
export function vmRssBytes(pid) {
  let status;
  try {
    status = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch (error) {
    if (error.code === "ENOENT" || error.code === "ESRCH") return 0;
    throw error;
  }
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (match) return Number(match[1]) * 1024;
  if (/^State:\s+Z/m.test(status)) return 0;
  throw new Error(`no VmRSS line in /proc/${pid}/status`);
}

/**
 * CPU time in ms that `pid` has used so far, every thread (the first field of each task's schedstat, in ns):
 * unlike wall time, it barely moves when other jobs load the machine. 0 for a process that is gone.
 */
export function cpuMs(pid) {
  let tasks;
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch (error) {
    if (error.code === "ENOENT" || error.code === "ESRCH") return 0;
    throw error;
  }
  let ns = 0;
  for (const task of tasks) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
    } catch (error) {
      if (error.code !== "ENOENT" && error.code !== "ESRCH") throw error; // a thread that just ended
    }
  }
  return ns / 1e6;
}
