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
 * Runs a TypeScript entry as a child process with an IPC channel: the child shuts down when the
 * channel closes, so no orphan survives the launcher even if it is killed hard.
 */
export function spawnTs(name: string, entry: string, env: Record<string, string>, onLine?: (name: string, line: string) => void): Child {
  const proc = spawn(TSX, [path.join(ROOT, entry)], {
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
