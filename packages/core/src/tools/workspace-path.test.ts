import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  isWithin,
  outsideWorkspaceMessage,
  resolveWorkspacePath,
  WorkspacePathError,
} from "./workspace-path.js";

let top: string; // holds the workspace and an "outside" sibling
let root: string;
let outside: string;

beforeEach(async () => {
  top = await realpath(await mkdtemp(path.join(tmpdir(), "wspath-")));
  root = path.join(top, "ws");
  outside = path.join(top, "outside");
  await mkdir(path.join(root, "src"), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(outside, "secret.txt"), "secret");
  await writeFile(path.join(root, "src", "a.ts"), "a");
});
afterEach(async () => {
  await rm(top, { recursive: true, force: true });
});

const rejects = async (input: string) => {
  const error = await resolveWorkspacePath(root, input).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WorkspacePathError);
  expect((error as Error).message).toBe(outsideWorkspaceMessage(input, root));
};

describe("resolveWorkspacePath", () => {
  it("resolves relative and absolute paths inside the workspace", async () => {
    expect(await resolveWorkspacePath(root, "src/a.ts")).toEqual({
      display: path.join(root, "src/a.ts"),
      real: path.join(root, "src/a.ts"),
    });
    expect((await resolveWorkspacePath(root, path.join(root, "src"))).real).toBe(path.join(root, "src"));
    expect((await resolveWorkspacePath(root, ".")).real).toBe(root);
    expect((await resolveWorkspacePath(root, "src/../new/deep/file.txt")).real).toBe(
      path.join(root, "new/deep/file.txt"),
    );
  });

  it("uses the exact error text", () => {
    expect(outsideWorkspaceMessage("../x", "/w")).toBe('Path "../x" is outside the workspace "/w".');
  });

  it("rejects .. escapes and absolute paths elsewhere", async () => {
    await rejects("../x");
    await rejects("src/../../outside/secret.txt");
    await rejects(path.join(outside, "secret.txt"));
    await rejects("/etc/passwd");
    await rejects(`${root}-evil/x`); // a sibling whose name starts with the root's
  });

  it("rejects a symlinked file pointing outside", async () => {
    await symlink(path.join(outside, "secret.txt"), path.join(root, "link.txt"));
    await rejects("link.txt");
  });

  it("rejects paths through a symlinked directory pointing outside, existing or not", async () => {
    await symlink(outside, path.join(root, "linkdir"));
    await rejects("linkdir");
    await rejects("linkdir/secret.txt");
    await rejects("linkdir/new/file.txt");
  });

  it("rejects a dangling symlink whose target is outside (a write would create it there)", async () => {
    await symlink(path.join(outside, "not-yet.txt"), path.join(root, "dangling.txt"));
    await rejects("dangling.txt");
    await symlink(path.join(outside, "missing-dir"), path.join(root, "dangling-dir"));
    await rejects("dangling-dir/x.txt");
  });

  it("allows symlinks that stay inside, and a root that is itself a symlink", async () => {
    await symlink(path.join(root, "src"), path.join(root, "srclink"));
    expect((await resolveWorkspacePath(root, "srclink/a.ts")).real).toBe(path.join(root, "src/a.ts"));
    const rootLink = path.join(top, "ws-link");
    await symlink(root, rootLink);
    const resolved = await resolveWorkspacePath(rootLink, "src/a.ts");
    expect(resolved).toEqual({ display: path.join(rootLink, "src/a.ts"), real: path.join(root, "src/a.ts") });
  });

  it("rejects empty paths", async () => {
    await expect(resolveWorkspacePath(root, " ")).rejects.toThrow("The path must be a non-empty string.");
  });
});

describe("isWithin", () => {
  it("handles equal, child, parent and prefix-sibling paths", () => {
    expect(isWithin("/a/b", "/a/b")).toBe(true);
    expect(isWithin("/a/b", "/a/b/c")).toBe(true);
    expect(isWithin("/a/b", "/a")).toBe(false);
    expect(isWithin("/a/b", "/a/bc")).toBe(false);
    expect(isWithin("/a/b", "/a/b/..c")).toBe(true);
  });
});
