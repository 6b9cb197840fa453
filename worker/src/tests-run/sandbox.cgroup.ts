import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { SandboxTotals } from "./sandbox";

/**
 * One cgroup per sandboxed command, so memory and processes are capped for the sandbox as a
 * whole and not only per process: cgroup v2 where the worker's own cgroup delegates `memory` and
 * `pids`, else the v1 `memory` and `pids` hierarchies (created under the worker's own cgroup, so
 * whatever caps the worker also caps the sandbox). Null when neither can be created (a worker
 * without the rights): the run then has the per-process limits only, and says so.
 */
export interface RunCgroup {
  totals: Exclude<SandboxTotals, "per process">;
  /** `cgroup.procs` files the sandbox's first process writes its pid to before it execs. */
  procs: string[];
  /** The wall the cgroup enforced during the run, if any. */
  hit(): Promise<"memory" | "processes" | null>;
  /** Kills what is left in the cgroup and removes it; never throws. */
  close(): Promise<void>;
}

export interface CgroupLimits {
  memoryBytes: number;
  processes: number;
}

const ROOT = "/sys/fs/cgroup";
const name = () => `fixloop-${process.pid}-${randomUUID()}`;

/** The worker's own cgroup path in each hierarchy ("" for v2, else the v1 controller list). */
async function ownCgroups(): Promise<Map<string, string>> {
  const text = await fs.readFile("/proc/self/cgroup", "utf8").catch(() => "");
  const out = new Map<string, string>();
  for (const line of text.split("\n")) {
    const [, controllers, p] = line.match(/^\d+:([^:]*):(.*)$/) ?? [];
    if (controllers === undefined || p === undefined) continue;
    for (const c of controllers ? controllers.split(",") : [""]) out.set(c, p);
  }
  return out;
}

const write = (file: string, value: string) => fs.writeFile(file, value);
const counter = async (file: string, key: string) => {
  const text = await fs.readFile(file, "utf8").catch(() => "");
  return Number(text.match(new RegExp(`^${key} (\\d+)$`, "m"))?.[1] ?? 0);
};

/** Where cgroup2 is mounted: /sys/fs/cgroup itself (unified) or /sys/fs/cgroup/unified (hybrid). */
async function v2Mount(): Promise<string | null> {
  for (const m of [ROOT, path.join(ROOT, "unified")])
    if (await fs.stat(path.join(m, "cgroup.controllers")).catch(() => null)) return m;
  return null;
}

async function openV2(own: Map<string, string>, limits: CgroupLimits): Promise<RunCgroup | null> {
  const mount = await v2Mount();
  const self = own.get("");
  if (!mount || self === undefined) return null;
  const parent = path.join(mount, self);
  const available = (await fs.readFile(path.join(parent, "cgroup.controllers"), "utf8").catch(() => "")).split(/\s+/);
  if (!available.includes("memory") || !available.includes("pids")) return null;
  // Fails (EBUSY) where the worker's own cgroup holds processes and delegates nothing: then v1 or nothing.
  const enabled = await write(path.join(parent, "cgroup.subtree_control"), "+memory +pids").then(
    () => true,
    () => false,
  );
  if (!enabled) return null;
  const dir = path.join(parent, name());
  try {
    await fs.mkdir(dir);
    await write(path.join(dir, "memory.max"), String(limits.memoryBytes));
    await write(path.join(dir, "memory.swap.max"), "0").catch(() => undefined);
    await write(path.join(dir, "pids.max"), String(limits.processes));
  } catch {
    await fs.rmdir(dir).catch(() => undefined);
    return null;
  }
  return {
    totals: "cgroup v2",
    procs: [path.join(dir, "cgroup.procs")],
    hit: async () =>
      (await counter(path.join(dir, "memory.events"), "oom_kill"))
        ? "memory"
        : (await counter(path.join(dir, "pids.events"), "max"))
          ? "processes"
          : null,
    // cgroup.kill (Linux 5.14+) takes the whole cgroup at once; before it, one pid at a time.
    close: () =>
      remove([dir], () =>
        write(path.join(dir, "cgroup.kill"), "1").catch(() => killAll(path.join(dir, "cgroup.procs"))),
      ),
  };
}

async function openV1(own: Map<string, string>, limits: CgroupLimits): Promise<RunCgroup | null> {
  const memory = path.join(ROOT, "memory", own.get("memory") ?? "/", name());
  const pids = path.join(ROOT, "pids", own.get("pids") ?? "/", name());
  const made: string[] = [];
  try {
    for (const d of [memory, pids]) {
      await fs.mkdir(d);
      made.push(d);
    }
    await write(path.join(memory, "memory.limit_in_bytes"), String(limits.memoryBytes));
    // No swap beyond the memory cap, where swap accounting exists.
    await write(path.join(memory, "memory.memsw.limit_in_bytes"), String(limits.memoryBytes)).catch(() => undefined);
    await write(path.join(pids, "pids.max"), String(limits.processes));
  } catch {
    await Promise.all(made.map((d) => fs.rmdir(d).catch(() => undefined)));
    return null;
  }
  return {
    totals: "cgroup v1",
    procs: [path.join(memory, "cgroup.procs"), path.join(pids, "cgroup.procs")],
    hit: async () =>
      (await counter(path.join(memory, "memory.oom_control"), "oom_kill"))
        ? "memory"
        : (await counter(path.join(pids, "pids.events"), "max"))
          ? "processes"
          : null,
    close: () => remove([memory, pids], () => killAll(path.join(pids, "cgroup.procs"))),
  };
}

async function killAll(procs: string): Promise<void> {
  for (const pid of (await fs.readFile(procs, "utf8").catch(() => "")).split("\n").map(Number)) {
    if (!pid) continue;
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      /* gone */
    }
  }
}

/** rmdir fails (EBUSY) while a process is still in the cgroup: kill what is left and retry for a while. */
async function remove(dirs: string[], kill: () => Promise<void>): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const left = await Promise.all(
      dirs.map((d) =>
        fs.rmdir(d).then(
          () => false,
          (e: NodeJS.ErrnoException) => e.code !== "ENOENT",
        ),
      ),
    );
    if (!left.some(Boolean)) return;
    await kill().catch(() => undefined);
    await new Promise((r) => setTimeout(r, 20 * Math.min(attempt + 1, 10)));
  }
}

/** A cgroup of its own for one run, or null when the worker cannot create one here. */
export async function openRunCgroup(limits: CgroupLimits): Promise<RunCgroup | null> {
  if (process.platform !== "linux") return null;
  const own = await ownCgroups();
  return (await openV2(own, limits)) ?? (await openV1(own, limits));
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
};

/** Removes the (empty) cgroups of runs whose worker process is gone, e.g. after a crash; returns how many. */
export async function sweepCgroups(): Promise<number> {
  const own = await ownCgroups();
  const v2 = await v2Mount();
  const parents = [
    ...(v2 && own.has("") ? [path.join(v2, own.get("") ?? "/")] : []),
    path.join(ROOT, "memory", own.get("memory") ?? "/"),
    path.join(ROOT, "pids", own.get("pids") ?? "/"),
  ];
  let removed = 0;
  for (const parent of parents) {
    for (const entry of await fs.readdir(parent).catch(() => [] as string[])) {
      const pid = Number(entry.match(/^fixloop-(\d+)-/)?.[1]);
      if (!pid || pid === process.pid || alive(pid)) continue;
      if (
        await fs.rmdir(path.join(parent, entry)).then(
          () => true,
          () => false,
        )
      )
        removed++;
    }
  }
  return removed;
}

/**
 * argv prefix that puts the process into the cgroup before it execs the rest: the shell writes its
 * own pid (which `exec` keeps) to each `cgroup.procs`, so everything the sandbox starts is inside.
 */
export function cgroupEnterArgv(cg: RunCgroup): string[] {
  const script = 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; exec "$@"';
  return ["/bin/sh", "-c", script, "sandbox-cgroup", ...cg.procs, "--"];
}
