// A private PostgreSQL server for the test suites (the storage contract suite, the two-host e2e tests): Debian's
// `postgresql` package, installed with apt when missing and we may (root), started as the `postgres` system user
// (the server refuses to run as root) in a fresh temp folder: its own data folder, a free loopback port, its unix
// socket in that folder, a random password. Whoever starts one stops it (stopTestPostgres) whatever happens; a
// server this code did not start is never touched.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const PG_ROOT = "/usr/lib/postgresql";
const SYSTEM_USER = "postgres";
const DB_USER = "qwen_test";

/** The newest installed server's bin folder, or undefined. */
export function findPostgresBin() {
  if (process.env.QWEN_TEST_PG_BIN !== undefined) return process.env.QWEN_TEST_PG_BIN;
  if (!existsSync(PG_ROOT)) return undefined;
  const versions = readdirSync(PG_ROOT)
    .filter((v) => existsSync(join(PG_ROOT, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length === 0 ? undefined : join(PG_ROOT, versions[0], "bin");
}

// A bare PATH (CI, a fresh shell) may lack the sbin folders where runuser lives.
const RUNUSER = ["/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser"].find(existsSync) ?? "runuser";

const isRoot = () => typeof process.getuid === "function" && process.getuid() === 0;

/** Installs Debian's postgresql when no server is installed; returns the bin folder or throws saying how. */
export function ensurePostgresInstalled(log = (line) => console.error(line)) {
  const found = findPostgresBin();
  if (found !== undefined) return found;
  const hasApt = spawnSync("sh", ["-c", "command -v apt-get"], { stdio: "ignore" }).status === 0;
  if (!isRoot() || !hasApt) {
    throw new Error(
      "PostgreSQL is not installed and cannot be installed here (needs root and apt-get): " +
        "sudo apt-get install -y postgresql (or set QWEN_TEST_PG_BIN to a folder holding initdb and pg_ctl)",
    );
  }
  log("[test-postgres] installing postgresql with apt for the storage tests ...");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [
    ["update", "-qq"],
    ["install", "-y", "-qq", "--no-install-recommends", "postgresql"],
  ]) {
    const r = spawnSync("apt-get", args, { stdio: ["ignore", "ignore", "inherit"], env });
    if (r.status !== 0) throw new Error(`apt-get ${args.join(" ")} failed (exit ${r.status})`);
  }
  const bin = findPostgresBin();
  if (bin === undefined) throw new Error(`apt installed postgresql but no server is under ${PG_ROOT}`);
  return bin;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Runs a server tool as the postgres system user when we are root (it refuses root), else as ourselves. */
function runTool(bin, tool, args) {
  const command = join(bin, tool);
  const r = isRoot()
    ? spawnSync(RUNUSER, ["-u", SYSTEM_USER, "--", command, ...args], { encoding: "utf8" })
    : spawnSync(command, args, { encoding: "utf8" });
  if (r.status !== 0) {
    throw new Error(
      `${tool} ${args[0] ?? ""} failed (exit ${r.status}): ${(r.stderr || r.stdout || "").trim()}`,
    );
  }
  return r.stdout;
}

/**
 * Starts a private server and returns { url, dir, port, stop() }: `url` is a postgres:// URL (with the
 * password) of its `postgres` database; stop() is idempotent and removes the folder.
 */
export async function startTestPostgres({ log = (line) => console.error(line) } = {}) {
  const bin = ensurePostgresInstalled(log);
  const dir = mkdtempSync(join(tmpdir(), "qwen-test-pg-"));
  const data = join(dir, "data");
  const password = randomBytes(18).toString("base64url");
  const pwfile = join(dir, "pwfile");
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (isRoot()) {
    const { uid, gid } = systemUser();
    chownSync(dir, uid, gid);
    chownSync(pwfile, uid, gid);
  }
  chmodSync(dir, 0o700);
  let started = false;
  const stop = () => {
    if (started) {
      started = false;
      try {
        runTool(bin, "pg_ctl", ["stop", "-D", data, "-m", "fast", "-w"]);
      } catch (error) {
        log(`[test-postgres] could not stop the server in ${dir}: ${error.message}`);
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    runTool(bin, "initdb", [
      "-D",
      data,
      "-U",
      DB_USER,
      `--pwfile=${pwfile}`,
      "--auth=scram-sha-256",
      "-E",
      "UTF8",
      "--no-instructions",
    ]);
    rmSync(pwfile);
    // A free port can be taken between the probe and the server's bind: try a few.
    for (let attempt = 0; ; attempt++) {
      const port = await freePort();
      try {
        runTool(bin, "pg_ctl", [
          "start",
          "-D",
          data,
          "-w",
          "-l",
          join(dir, "server.log"),
          "-o",
          `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c max_connections=200`,
        ]);
        started = true;
        const url = `postgres://${DB_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
        return { url, dir, port, stop };
      } catch (error) {
        if (attempt >= 3) throw error;
      }
    }
  } catch (error) {
    stop();
    throw error;
  }
}

function systemUser() {
  const r = spawnSync("id", ["-u", SYSTEM_USER], { encoding: "utf8" });
  const g = spawnSync("id", ["-g", SYSTEM_USER], { encoding: "utf8" });
  if (r.status !== 0 || g.status !== 0) {
    throw new Error(`no '${SYSTEM_USER}' system user (the postgresql package creates it)`);
  }
  return { uid: Number(r.stdout.trim()), gid: Number(g.stdout.trim()) };
}
