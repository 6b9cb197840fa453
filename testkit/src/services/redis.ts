import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import net from "node:net";
import { pickPort } from "./ports";

export interface RunningRedis {
  /** Carries the password: `redis://:<password>@127.0.0.1:<port>`. */
  url: string;
  port: number;
  password: string;
  pid: number;
  stop(): Promise<void>;
  /** Simulates a crash: SIGKILL, no shutdown save. */
  kill(): Promise<void>;
}

export const REDIS_MISSING_MESSAGE =
  "redis-server was not found on PATH. Install it with one of:\n" +
  "  apt-get install redis-server   (Debian/Ubuntu)\n" +
  "  brew install redis             (macOS)\n" +
  "  docker compose up redis        (then set REDIS_URL=redis://localhost:6379)\n" +
  "or point REDIS_URL at an existing Redis.";

export function findRedisServer(): string | null {
  const r = spawnSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" });
  const bin = r.stdout.trim();
  return r.status === 0 && bin ? bin : null;
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = net.connect(port, "127.0.0.1");
    sock.setTimeout(500);
    sock.once("connect", () => sock.write("PING\r\n"));
    sock.once("data", (d) => {
      sock.destroy();
      // Without the password the answer is NOAUTH: the server is up all the same.
      resolve(/^(\+PONG|-NOAUTH)/.test(d.toString()));
    });
    sock.once("error", () => resolve(false));
    sock.once("timeout", () => {
      sock.destroy();
      resolve(false);
    });
  });
}

function waitExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((r) => child.once("exit", () => r()));
}

/**
 * Spawns `redis-server` with AOF persistence and no eviction, data kept in `dataDir`, refusing
 * clients without `password` (a fresh random one when not given: restarts on the same data that
 * must keep their clients pass the previous `password`).
 */
export async function startRedisServer(opts: {
  dataDir: string;
  password?: string;
  port?: number;
  log?: (l: string) => void;
}): Promise<RunningRedis> {
  const bin = findRedisServer();
  if (!bin) throw new Error(REDIS_MISSING_MESSAGE);
  const dataDir = path.resolve(opts.dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  const port = await pickPort(opts.port ?? 0);
  const password = opts.password ?? crypto.randomBytes(24).toString("hex");
  if (!/^[\w.~-]+$/.test(password)) throw new Error("The Redis password may hold letters, digits and . _ ~ - only");
  const child = spawn(
    bin,
    [
      // The config file is stdin, so the password is not in the process list.
      "-",
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--dir",
      dataDir,
      "--appendonly",
      "yes",
      "--appendfsync",
      "everysec",
      "--maxmemory-policy",
      "noeviction",
      "--save",
      "",
      "--daemonize",
      "no",
      "--protected-mode",
      "yes",
    ],
    { stdio: ["pipe", "pipe", "pipe"] },
  );
  child.stdin?.end(`requirepass ${password}\n`);
  const log = opts.log ?? (() => {});
  child.stdout?.on("data", (d) => log(String(d).trim()));
  child.stderr?.on("data", (d) => log(String(d).trim()));
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}`);
    if (await ping(port)) break;
    await new Promise((r) => setTimeout(r, 50));
    if (i === 199) throw new Error("redis-server did not answer PING within 10 s");
  }
  return {
    url: `redis://:${encodeURIComponent(password)}@127.0.0.1:${port}`,
    port,
    password,
    pid: child.pid ?? -1,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      await waitExit(child);
    },
    async kill() {
      child.kill("SIGKILL");
      await waitExit(child);
    },
  };
}
