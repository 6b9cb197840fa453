import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import url from "node:url";
import { pickPort } from "@fixloop/testkit/services";
import { TEST_ENCRYPTION_KEYS } from "./testing";
import { until } from "./faults.testkit";

const ROOT = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "../..");

/** One real API or worker process (node + tsx on its entry file), as a host would run it. */
export interface ClusterProcess {
  name: string;
  child: ChildProcess;
  /** Its own data and workspace directory (workers), as on a separate host. */
  dataDir: string;
  /** Exit code (null when a signal ended it) and signal, once it exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Warnings and errors it logged (LOG_LEVEL=warn), for a failing test to show. */
  lines: string[];
}

export interface ClusterApi extends ClusterProcess {
  url: string;
}

/**
 * Starts API and worker processes on one Postgres and one Redis (the `base` settings: database,
 * Redis, queue prefix, stand-in URLs), each with its own data directory. Every process still
 * alive is SIGKILLed by `stopAll()` (call it from the file's `afterAll`: the
 * settings exist only once the file's stack is up, so this is made in `beforeAll`, where a hook
 * of its own would never run), and the directories removed.
 */
export function clusterProcesses(base: Record<string, string>) {
  const all: ClusterProcess[] = [];

  function launch(name: string, entry: string, env: Record<string, string>): ClusterProcess {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `fixloop-${name}-`));
    const workspaces = path.join(dataDir, "workspaces");
    const child = spawn(process.execPath, ["--import", "tsx", entry], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: "test",
        TOKEN_ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
        LOG_LEVEL: "warn",
        // One user starts every run here: the per-user cap would serialise them (it is tested in solve.fairness.test.ts).
        MAX_ACTIVE_RUNS_PER_USER: "64",
        FIXLOOP_DATA_DIR: dataDir,
        WORKSPACE_DIR: workspaces,
        ...base,
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const lines: string[] = [];
    const keep = (buf: Buffer) => {
      for (const line of buf.toString().split("\n")) if (line.trim()) lines.push(line);
      if (lines.length > 200) lines.splice(0, lines.length - 200);
    };
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once("exit", (code, signal) => resolve({ code, signal })),
    );
    const p = { name, child, dataDir, exited, lines };
    all.push(p);
    return p;
  }

  return {
    /** SIGKILLs every process still alive and removes the directories: the file's `afterAll` calls it. */
    async stopAll(): Promise<void> {
      const alive = all.filter((p) => p.child.exitCode === null && p.child.signalCode === null);
      for (const p of alive) p.child.kill("SIGKILL");
      await Promise.all(alive.map((p) => p.exited));
      for (const p of all) fs.rmSync(p.dataDir, { recursive: true, force: true });
    },
    /** An API process on a free port; resolves once `/api/health` answers. */
    async startApi(name: string, env: Record<string, string> = {}): Promise<ClusterApi> {
      const port = await pickPort(0);
      const p = launch(name, "api/src/main.ts", { PORT: String(port), HOST: "127.0.0.1", ...env });
      const apiUrl = `http://127.0.0.1:${port}`;
      const gone = p.exited.then(({ code }) => {
        throw new Error(`${name} exited (${code}) during start:\n${p.lines.join("\n")}`);
      });
      await Promise.race([
        until(`${name} healthy`, async () => (await fetch(`${apiUrl}/api/health`)).ok, 60_000),
        gone,
      ]);
      return { ...p, url: apiUrl };
    },
    /** A worker process with its own workspace directory (callers wait for it to connect). */
    startWorker(name: string, env: Record<string, string> = {}): ClusterProcess {
      return launch(name, "worker/src/main.ts", env);
    },
    /** Sends `signal` and waits for the exit; returns it with how long it took. */
    async signal(p: ClusterProcess, signal: NodeJS.Signals) {
      const t0 = performance.now();
      p.child.kill(signal);
      const exit = await p.exited;
      return { ...exit, ms: Math.round(performance.now() - t0) };
    },
  };
}

/**
 * A load balancer's failover in front of API processes, at the TCP level: each connection goes
 * to the first upstream that accepts it, and is cut when that upstream's side closes (as when
 * the process dies), so a client reconnects and lands on the next live one.
 */
export async function failoverProxy(upstreams: string[]): Promise<{ url: string; close(): Promise<void> }> {
  const targets = upstreams.map((u) => new URL(u));
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.once("close", () => sockets.delete(client));
    client.pause();
    const tryNext = (i: number) => {
      const t = targets[i];
      if (!t) return void client.destroy();
      const up = net.connect(Number(t.port), t.hostname);
      let connected = false;
      up.on("error", () => {
        if (!connected) tryNext(i + 1);
      });
      up.once("connect", () => {
        connected = true;
        sockets.add(up);
        up.once("close", () => {
          sockets.delete(up);
          client.destroy();
        });
        client.once("close", () => up.destroy());
        client.pipe(up);
        up.pipe(client);
        client.resume();
      });
    };
    client.on("error", () => {});
    tryNext(0);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as net.AddressInfo;
  const close = async () => {
    for (const s of sockets) s.destroy();
    if (server.listening) await new Promise<void>((r) => server.close(() => r()));
  };
  return { url: `http://127.0.0.1:${port}`, close };
}
