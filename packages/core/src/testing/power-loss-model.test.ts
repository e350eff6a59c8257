import { describe, expect, it } from "vitest";
import type { FsOp } from "../storage/fs-op-log.js";
import { afterPowerLoss, diskStateKey, withoutPowerLoss } from "./power-loss-model.js";

const R = "/home/q";
const text = (s: string): FsOp => ({
  op: "append",
  path: `${R}/a/f`,
  base64: Buffer.from(s).toString("base64"),
});
const files = (ops: FsOp[], cut?: number) =>
  Object.fromEntries(
    [...afterPowerLoss(ops, R, cut).files].map(([p, b]) => [p, Buffer.from(b).toString("utf8")]),
  );
const dirs = (ops: FsOp[], cut?: number) => afterPowerLoss(ops, R, cut).dirs;

/** A folder `a` made durable and a file `a/f` created durably in it. */
const madeFile: FsOp[] = [
  { op: "mkdir", path: `${R}/a` },
  { op: "fsyncDir", path: R },
  { op: "create", path: `${R}/a/f` },
  { op: "fsyncDir", path: `${R}/a` },
];

describe("the power-loss model", () => {
  it("keeps a file's bytes up to its last fsync", () => {
    const ops: FsOp[] = [...madeFile, text("one\n"), { op: "fsync", path: `${R}/a/f` }, text("two\n")];
    expect(files(ops)).toEqual({ "a/f": "one\n" });
    expect(files(ops, 5)).toEqual({ "a/f": "" });
    expect(files(ops, 4)).toEqual({ "a/f": "" });
    expect(withoutPowerLoss(ops, R).files.get("a/f")).toEqual(Buffer.from("one\ntwo\n"));
  });

  it("loses a new file whose folder was not fsynced after it was created, however often the file was", () => {
    const ops: FsOp[] = [
      { op: "mkdir", path: `${R}/a` },
      { op: "fsyncDir", path: R },
      { op: "create", path: `${R}/a/f` },
      text("x\n"),
      { op: "fsync", path: `${R}/a/f` },
    ];
    expect(files(ops)).toEqual({});
    expect(files([...ops, { op: "fsyncDir", path: `${R}/a` }])).toEqual({ "a/f": "x\n" });
  });

  it("loses everything below a folder whose own name was never fsynced into its parent (mkdir -p)", () => {
    const ops: FsOp[] = [
      { op: "mkdir", path: `${R}/p` },
      { op: "mkdir", path: `${R}/p/w` },
      { op: "mkdir", path: `${R}/p/w/chats` },
      { op: "fsyncDir", path: `${R}/p/w` },
      { op: "create", path: `${R}/p/w/chats/s.jsonl` },
      { op: "fsyncDir", path: `${R}/p/w/chats` },
    ];
    expect(dirs(ops)).toEqual([]);
    const withP = [...ops, { op: "fsyncDir", path: R } as FsOp];
    expect(dirs(withP)).toEqual(["p"]);
    const all = [...withP, { op: "fsyncDir", path: `${R}/p` } as FsOp];
    expect(dirs(all)).toEqual(["p", "p/w", "p/w/chats"]);
    expect(files(all)).toEqual({ "p/w/chats/s.jsonl": "" });
  });

  it("reverts a rename until its folder is fsynced: the old file is back with its old bytes", () => {
    const tmp = `${R}/a/f.tmp`;
    const ops: FsOp[] = [
      ...madeFile,
      text("old\n"),
      { op: "fsync", path: `${R}/a/f` },
      { op: "create", path: tmp },
      { op: "append", path: tmp, base64: Buffer.from("new\n").toString("base64") },
      { op: "fsync", path: tmp },
      { op: "rename", from: tmp, to: `${R}/a/f` },
    ];
    expect(files(ops)).toEqual({ "a/f": "old\n" });
    expect(withoutPowerLoss(ops, R).files.get("a/f")).toEqual(Buffer.from("new\n"));
    expect(files([...ops, { op: "fsyncDir", path: `${R}/a` }])).toEqual({ "a/f": "new\n" });
  });

  it("brings a removed file back until its folder is fsynced", () => {
    const ops: FsOp[] = [...madeFile, { op: "unlink", path: `${R}/a/f` }];
    expect(files(ops)).toEqual({ "a/f": "" });
    expect(withoutPowerLoss(ops, R).files.size).toBe(0);
    expect(files([...ops, { op: "fsyncDir", path: `${R}/a` }])).toEqual({});
  });

  it("leaves operations outside the root out, and a folder made twice is one folder", () => {
    const ops: FsOp[] = [
      { op: "mkdir", path: "/elsewhere/x" },
      { op: "fsyncDir", path: "/home" },
      { op: "mkdir", path: `${R}/a` },
      { op: "mkdir", path: `${R}/a` },
      { op: "fsyncDir", path: R },
    ];
    expect(dirs(ops)).toEqual(["a"]);
  });

  it("refuses an operation on a name that does not exist (the log does not match the model)", () => {
    expect(() => afterPowerLoss([text("x")], R)).toThrow(/no file at/);
    expect(() => afterPowerLoss([{ op: "create", path: `${R}/nope/f` }], R)).toThrow(/no folder for/);
  });

  it("gives equal keys to equal states and different keys to different ones", () => {
    const ops: FsOp[] = [...madeFile, text("one\n")];
    expect(diskStateKey(afterPowerLoss(ops, R, 4))).toBe(diskStateKey(afterPowerLoss(ops, R, 5)));
    expect(diskStateKey(afterPowerLoss(ops, R, 3))).not.toBe(diskStateKey(afterPowerLoss(ops, R, 4)));
  });
});
