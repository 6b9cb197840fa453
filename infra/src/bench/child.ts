import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import url from "node:url";

const HERE = path.dirname(url.fileURLToPath(import.meta.url));

export interface BenchChild {
  proc: ChildProcess;
  send(m: unknown): void;
  /** The next message accepted by `pick`. */
  next<T>(pick: (m: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<T>;
  stop(): Promise<void>;
}

/** Runs one of the bench's own entries (`file` in this folder) as `node --import tsx` with IPC. */
export function forkBench(file: string, env: Record<string, string> = {}): BenchChild {
  const proc = fork(path.join(HERE, file), [], {
    execArgv: ["--import", import.meta.resolve("tsx"), "--max-old-space-size=2048"],
    env: { ...process.env, ...env },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const exited = new Promise<void>((r) => proc.once("exit", () => r()));
  return {
    proc,
    send: (m) => proc.send(m as never),
    next<T>(pick: (m: Record<string, unknown>) => boolean, timeoutMs = 120_000) {
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => done(new Error(`${file}: no answer within ${timeoutMs} ms`)), timeoutMs);
        const onMessage = (m: Record<string, unknown>) => {
          if (typeof m.error === "string") done(new Error(`${file}: ${m.error}`));
          else if (pick(m)) done(null, m as T);
        };
        const onExit = (code: number | null) => done(new Error(`${file} exited with ${code}`));
        function done(err: Error | null, v?: T) {
          clearTimeout(timer);
          proc.off("message", onMessage);
          proc.off("exit", onExit);
          if (err) reject(err);
          else resolve(v as T);
        }
        proc.on("message", onMessage);
        proc.once("exit", onExit);
      });
    },
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.disconnect();
      const timer = setTimeout(() => proc.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Resident memory (KiB) of a process and all its descendants (tsx runs the entry in a child). */
export function treeRssKiB(pid: number): number {
  let total = 0;
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    total += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
      const kids = fs.readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim();
      for (const kid of kids ? kids.split(/\s+/) : []) total += treeRssKiB(Number(kid));
    }
  } catch {
    // the process ended meanwhile
  }
  return total;
}

const TICKS = 100;

/** CPU seconds (user + system) used so far by a process and its descendants. */
export function treeCpuSeconds(pid: number): number {
  let total = 0;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime + stime, plus cutime + cstime: the CPU of children it has already waited for
    // (a sandboxed test run has ended by the time the burst is measured).
    total += (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / TICKS;
    for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
      const kids = fs.readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim();
      for (const kid of kids ? kids.split(/\s+/) : []) total += treeCpuSeconds(Number(kid));
    }
  } catch {
    // the process ended meanwhile
  }
  return total;
}

/** Busy and total CPU time of the whole machine so far, in ticks (from /proc/stat). */
export function machineCpuTicks(): { busy: number; total: number } {
  const line = fs.readFileSync("/proc/stat", "utf8").split("\n", 1)[0] ?? "";
  const t = line.trim().split(/\s+/).slice(1).map(Number);
  const total = t.reduce((a, b) => a + b, 0);
  // idle and iowait are the 4th and 5th fields.
  return { busy: total - (t[3] ?? 0) - (t[4] ?? 0), total };
}
