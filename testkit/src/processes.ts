import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { ROOT } from "./paths";

export interface Child {
  name: string;
  proc: ChildProcess;
  /** SIGTERM, then SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
  kill(signal?: NodeJS.Signals): void;
  exited: Promise<number | null>;
}

const TSX = path.join(ROOT, "node_modules", ".bin", "tsx");

/**
 * Runs a TypeScript entry (or its prebuilt .mjs bundle) as a child process with an IPC channel: the child shuts down when the
 * channel closes, so no orphan survives the launcher even if it is killed hard.
 */
export function spawnTs(
  name: string,
  entry: string,
  env: Record<string, string>,
  onLine?: (name: string, line: string) => void,
): Child {
  // A prebuilt bundle (infra/docker/bundle.mjs) runs on plain node; a TypeScript source through tsx.
  const file = path.resolve(ROOT, entry);
  const [cmd, args] = file.endsWith(".mjs") ? [process.execPath, [file]] : [TSX, [file]];
  const proc = spawn(cmd, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  const relay = (buf: Buffer) => {
    for (const line of buf.toString().split("\n")) if (line.trim()) onLine?.(name, line);
  };
  proc.stdout?.on("data", relay);
  proc.stderr?.on("data", relay);
  const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
  return {
    name,
    proc,
    exited,
    kill: (signal = "SIGKILL") => {
      proc.kill(signal);
    },
    async stop(graceMs = 15_000) {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill("SIGTERM");
      const timer = setTimeout(() => proc.kill("SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

export interface SupervisorOptions {
  /** First restart delay; it doubles per crash in a row, up to `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** A child that ran this long counts as healthy again: the next crash restarts after `backoffMs`. */
  stableMs?: number;
  onLine?: (name: string, line: string) => void;
}

/**
 * A child that is started again when it dies without being asked to (a crash, kill -9, OOM),
 * after an exponential backoff, each restart logged. `proc` is the live process; `stop()` ends
 * supervision and the child.
 */
export function superviseTs(
  name: string,
  entry: string,
  env: Record<string, string>,
  opts: SupervisorOptions = {},
): Child & { restarts: number } {
  const base = opts.backoffMs ?? 1_000;
  const max = opts.maxBackoffMs ?? 30_000;
  const stable = opts.stableMs ?? 60_000;
  let stopping = false;
  let delay = base;
  let timer: NodeJS.Timeout | undefined;
  let resolveExited: (code: number | null) => void = () => {};
  const exited = new Promise<number | null>((r) => (resolveExited = r));
  let current = spawnTs(name, entry, env, opts.onLine);
  const handle = {
    name,
    restarts: 0,
    exited,
    get proc() {
      return current.proc;
    },
    kill: (signal: NodeJS.Signals = "SIGKILL") => current.kill(signal),
    async stop(graceMs?: number) {
      stopping = true;
      clearTimeout(timer);
      await current.stop(graceMs);
      resolveExited(current.proc.exitCode);
    },
  };
  const watch = (child: Child) => {
    const startedAt = Date.now();
    void child.exited.then((code) => {
      if (stopping) return;
      if (Date.now() - startedAt >= stable) delay = base;
      const how = child.proc.signalCode ?? `code ${code}`;
      opts.onLine?.(name, `${name} exited unexpectedly (${how}); restarting in ${delay} ms`);
      timer = setTimeout(() => {
        if (stopping) return;
        current = spawnTs(name, entry, env, opts.onLine);
        handle.restarts++;
        opts.onLine?.(name, `${name} restarted (restart ${handle.restarts}, pid ${current.proc.pid})`);
        watch(current);
      }, delay);
      delay = Math.min(max, delay * 2);
    });
  };
  watch(current);
  return handle;
}

export async function waitForHealth(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
      last = `status ${res.status}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`API did not become healthy at ${url} within ${timeoutMs} ms (${last})`);
}
