import {
  constants,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { afterPowerLoss, type DiskState, withoutPowerLoss } from "../testing/power-loss-model.js";
import { DurableFs, durableFsFromEnv } from "./durable-fs.js";
import { FS_OP_LOG_ENV, type FsOp, parseFsOpLog } from "./fs-op-log.js";

let root: string;
let ops: FsOp[];
let fs: DurableFs;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "durable-fs-"));
  ops = [];
  fs = new DurableFs({ record: (op) => ops.push(op) });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const text = (state: DiskState, path: string) => {
  const bytes = state.files.get(path);
  return bytes === undefined ? undefined : Buffer.from(bytes).toString("utf8");
};
/** The open flags of this process's one descriptor on `path` (Linux: /proc/self/fdinfo). */
function openFlagsOf(path: string): number {
  const fds = readdirSync("/proc/self/fd").filter((fd) => {
    try {
      return readlinkSync(join("/proc/self/fd", fd)) === realpathSync(path);
    } catch {
      return false; // the descriptor readdir itself used, closed by now
    }
  });
  expect(fds).toHaveLength(1);
  const flags = /^flags:\s+([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fds[0]}`, "utf8"))?.[1];
  return Number.parseInt(flags ?? "", 8);
}
/** The tree under the root as it is on disk now (the page cache's view). */
function onDisk(): DiskState {
  const state: DiskState = { dirs: [], files: new Map() };
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        state.dirs.push(relative(root, path));
        walk(path);
      } else state.files.set(relative(root, path), readFileSync(path));
    }
  };
  walk(root);
  state.dirs.sort();
  return state;
}

describe("DurableFs", () => {
  it("a file opened with syncEachWrite is O_DSYNC: each append is durable as it returns, on a new file and an existing one", async () => {
    const path = join(root, "chats", "s.answers.jsonl");
    for (const line of ["one\n", "two\n"]) {
      const file = await fs.openAppend(path, { root, syncEachWrite: true });
      try {
        expect(file.syncsEachWrite).toBe(true);
        expect(openFlagsOf(path) & constants.O_DSYNC).toBe(constants.O_DSYNC);
        await file.append(Buffer.from(line));
      } finally {
        await file.close();
      }
    }
    expect(ops.filter((op) => op.op === "append" || op.op === "fsync").map((op) => op.op)).toEqual([
      "append",
      "fsync",
      "append",
      "fsync",
    ]);
    expect(text(afterPowerLoss(ops, root), "chats/s.answers.jsonl")).toBe("one\ntwo\n");
  });

  it("a durable append in folders mkdir -p made survives a power loss: every level is fsynced into its parent", async () => {
    const path = join(root, "projects", "-w", "chats", "s.jsonl");
    await fs.appendText(path, "one\n", { root, durable: true });
    const after = afterPowerLoss(ops, root);
    expect(after.dirs).toEqual(["projects", "projects/-w", "projects/-w/chats"]);
    expect(text(after, "projects/-w/chats/s.jsonl")).toBe("one\n");
    expect(ops.filter((op) => op.op === "mkdir")).toHaveLength(3);
    // What the log says is what is on disk: nothing is written around it.
    expect(withoutPowerLoss(ops, root)).toEqual(onDisk());
  });

  it("a folder someone else made is fsynced into its parent too, once per process", async () => {
    mkdirSync(join(root, "projects", "-w", "chats"), { recursive: true });
    await fs.appendText(join(root, "projects", "-w", "chats", "a.jsonl"), "a\n", { root, durable: true });
    const synced = ops.filter((op) => op.op === "fsyncDir").map((op) => relative(root, op.path));
    expect(synced).toEqual(["projects/-w", "projects", "", "..", "projects/-w/chats"]);
    ops.length = 0;
    await fs.appendText(join(root, "projects", "-w", "chats", "b.jsonl"), "b\n", { root, durable: true });
    expect(ops.filter((op) => op.op === "fsyncDir").map((op) => relative(root, op.path))).toEqual([
      "projects/-w/chats",
    ]);
  });

  it("an append that is not durable is lost with the power; its file's name is not", async () => {
    const path = join(root, "notify", "outbox.jsonl");
    await fs.appendText(path, "add\n", { root, durable: true });
    await fs.appendText(path, "close\n", { root, durable: false });
    expect(text(afterPowerLoss(ops, root), "notify/outbox.jsonl")).toBe("add\n");
    expect(text(withoutPowerLoss(ops, root), "notify/outbox.jsonl")).toBe("add\nclose\n");
  });

  it("replaceFile leaves the new text after a power loss, and the old one at every step before its folder's fsync", async () => {
    const path = join(root, "notify", "outbox.jsonl");
    await fs.appendText(path, "old\n", { root, durable: true });
    const before = ops.length;
    await fs.replaceFile(path, "new\n", { root });
    expect(text(afterPowerLoss(ops, root), "notify/outbox.jsonl")).toBe("new\n");
    for (let cut = before; cut < ops.length; cut += 1) {
      expect(text(afterPowerLoss(ops, root, cut), "notify/outbox.jsonl")).toBe("old\n");
    }
    expect(readdirSync(join(root, "notify"))).toEqual(["outbox.jsonl"]);
    expect(withoutPowerLoss(ops, root)).toEqual(onDisk());
  });

  it("replaceFile makes the folders of a file that did not exist", async () => {
    await fs.replaceFile(join(root, "a", "b", "f"), "x", { root });
    expect(text(afterPowerLoss(ops, root), "a/b/f")).toBe("x");
  });

  it("removeFile's removal survives a power loss; removing nothing does nothing", async () => {
    const path = join(root, "chats", "s.prompts.jsonl");
    await fs.appendText(path, "p\n", { root, durable: true });
    await fs.removeFile(path);
    await fs.removeFile(path);
    expect(afterPowerLoss(ops, root).files.size).toBe(0);
    expect(ops.filter((op) => op.op === "unlink")).toHaveLength(1);
  });

  it(`${FS_OP_LOG_ENV} makes a DurableFs that appends its operations to that file`, async () => {
    const log = join(root, "..", `${relative(tmpdir(), root)}.ops.jsonl`);
    try {
      const traced = durableFsFromEnv({ [FS_OP_LOG_ENV]: log });
      await traced.appendText(join(root, "d", "f"), "hi", { root, durable: true });
      const logged = parseFsOpLog(readFileSync(log, "utf8"));
      expect(logged.map((op) => op.op)).toEqual([
        "mkdir",
        "fsyncDir",
        "fsyncDir",
        "create",
        "fsyncDir",
        "append",
        "fsync",
      ]);
      expect(text(afterPowerLoss(logged, root), "d/f")).toBe("hi");
    } finally {
      rmSync(log, { force: true });
    }
    expect(() => parseFsOpLog('{"op":"chmod","path":"/x"}\n')).toThrow(/line 1 is not an operation/);
  });
});
