import type { Redis } from "ioredis";
import { SandboxCheck } from "@fixloop/contract";

/** How often a worker process writes its heartbeat, and how long a silent one stays listed. */
export const WORKER_HEARTBEAT_MS = 5_000;
export const WORKER_HEARTBEAT_TTL_SECONDS = 15;

export type WorkerState = "running" | "draining" | "drained";

/** One worker process as it last described itself. */
export interface WorkerInfo {
  id: string;
  host: string;
  pid: number;
  queues: string[];
  concurrency: number;
  activeJobs: number;
  state: WorkerState;
  version: string;
  startedAt: string;
  heartbeatAt: string;
  /** The last sandbox self-check of a worker serving solve or tests-rerun (null: none, or not yet). */
  sandbox: SandboxCheck | null;
  /** The last jobs it took, newest first (`queue #id`), at most RECENT_JOBS. */
  recentJobs: string[];
}

/** How many of a worker's last jobs its heartbeat names. */
export const RECENT_JOBS = 5;

/** Ids are made by `workerId`: host, pid and a random suffix, safe in a URL path. */
export const WORKER_ID = /^[A-Za-z0-9._-]{1,200}$/;

const indexKey = (prefix: string) => `${prefix}:ops:workers`;
/**
 * Each worker's last heartbeat, kept without expiry: a process killed without stopping (OOM, a
 * node lost) leaves it behind when its expiring hash goes, and the operations page lists it as
 * lost until an operator dismisses it. A worker that stops cleanly removes it.
 */
const lastSeenKey = (prefix: string) => `${prefix}:ops:workers-last-seen`;
const workerKey = (prefix: string, id: string) => `${prefix}:ops:worker:${id}`;
/** Pub/sub channel on which an operator asks one worker process (message: its id) to drain. */
export const workerDrainChannel = (prefix: string) => `${prefix}:ops:worker-drain`;

/** Writes a worker's heartbeat: its hash (expiring when it stops beating) and its place in the index. */
export async function writeWorkerHeartbeat(redis: Redis, prefix: string, w: WorkerInfo): Promise<void> {
  const key = workerKey(prefix, w.id);
  await redis
    .multi()
    .hset(key, {
      host: w.host,
      pid: String(w.pid),
      queues: JSON.stringify(w.queues),
      concurrency: String(w.concurrency),
      activeJobs: String(w.activeJobs),
      state: w.state,
      version: w.version,
      startedAt: w.startedAt,
      heartbeatAt: w.heartbeatAt,
      sandbox: w.sandbox ? JSON.stringify(w.sandbox) : "",
      recentJobs: JSON.stringify(w.recentJobs),
    })
    .expire(key, WORKER_HEARTBEAT_TTL_SECONDS)
    .zadd(indexKey(prefix), Date.parse(w.heartbeatAt), w.id)
    .hset(lastSeenKey(prefix), w.id, JSON.stringify({ ...w, sandbox: null }))
    .exec();
}

/** Removes a worker that stopped cleanly, so it is not listed until its heartbeat expires. */
export async function removeWorkerHeartbeat(redis: Redis, prefix: string, id: string): Promise<void> {
  await redis.multi().del(workerKey(prefix, id)).zrem(indexKey(prefix), id).hdel(lastSeenKey(prefix), id).exec();
}

/** A worker process that stopped beating without stopping cleanly: its last heartbeat. */
export type LostWorker = Omit<WorkerInfo, "sandbox">;

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

/** Workers whose heartbeat stopped (past its TTL) without a clean stop, most recently lost first; at most 50. */
export async function listLostWorkers(redis: Redis, prefix: string, now = Date.now()): Promise<LostWorker[]> {
  const all = await redis.hgetall(lastSeenKey(prefix));
  const lost: LostWorker[] = [];
  for (const [id, raw] of Object.entries(all)) {
    let w: Record<string, unknown>;
    try {
      w = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      continue;
    }
    const at = typeof w.heartbeatAt === "string" ? Date.parse(w.heartbeatAt) : NaN;
    if (!WORKER_ID.test(id) || !Number.isFinite(at) || at > now - WORKER_HEARTBEAT_TTL_SECONDS * 1000) continue;
    lost.push({
      id,
      host: String(w.host ?? ""),
      pid: Number(w.pid) || 0,
      queues: strings(w.queues),
      concurrency: Number(w.concurrency) || 0,
      activeJobs: Number(w.activeJobs) || 0,
      state: STATES.has(String(w.state)) ? (w.state as WorkerState) : "running",
      version: String(w.version ?? ""),
      startedAt: String(w.startedAt ?? w.heartbeatAt),
      heartbeatAt: new Date(at).toISOString(),
      recentJobs: strings(w.recentJobs),
    });
  }
  return lost.sort((a, b) => b.heartbeatAt.localeCompare(a.heartbeatAt)).slice(0, 50);
}

/** An operator dismissed a lost worker: it is no longer listed. Resolves to whether it was listed. */
export async function dismissLostWorker(redis: Redis, prefix: string, id: string): Promise<boolean> {
  return (await redis.hdel(lastSeenKey(prefix), id)) > 0;
}

const STATES = new Set<string>(["running", "draining", "drained"]);

function parseWorker(id: string, h: Record<string, string>): WorkerInfo | null {
  if (!h.host || !h.heartbeatAt) return null;
  let queues: unknown;
  try {
    queues = JSON.parse(h.queues ?? "[]");
  } catch {
    queues = [];
  }
  return {
    id,
    host: h.host,
    pid: Number(h.pid) || 0,
    queues: Array.isArray(queues) ? queues.filter((q): q is string => typeof q === "string") : [],
    concurrency: Number(h.concurrency) || 0,
    activeJobs: Number(h.activeJobs) || 0,
    state: STATES.has(h.state ?? "") ? (h.state as WorkerState) : "running",
    version: h.version ?? "",
    startedAt: h.startedAt ?? h.heartbeatAt,
    heartbeatAt: h.heartbeatAt,
    sandbox: parseSandbox(h.sandbox),
    recentJobs: parseRecent(h.recentJobs),
  };
}

function parseRecent(raw: string | undefined): string[] {
  try {
    return strings(JSON.parse(raw ?? "[]")).slice(0, RECENT_JOBS);
  } catch {
    return [];
  }
}

function parseSandbox(raw: string | undefined): SandboxCheck | null {
  if (!raw) return null;
  try {
    const r = SandboxCheck.safeParse(JSON.parse(raw));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

/** Every worker process whose heartbeat has not expired, oldest first; stale index entries are pruned. */
export async function listWorkers(redis: Redis, prefix: string, now = Date.now()): Promise<WorkerInfo[]> {
  const index = indexKey(prefix);
  await redis.zremrangebyscore(index, "-inf", String(now - WORKER_HEARTBEAT_TTL_SECONDS * 1000));
  const ids = await redis.zrange(index, "0", "-1");
  if (!ids.length) return [];
  const pipe = redis.pipeline();
  for (const id of ids) pipe.hgetall(workerKey(prefix, id));
  const rows = (await pipe.exec()) ?? [];
  const workers = ids.flatMap((id, i) => {
    const h = rows[i]?.[1] as Record<string, string> | undefined;
    const w = h ? parseWorker(id, h) : null;
    return w ? [w] : [];
  });
  return workers.sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.id.localeCompare(b.id));
}

/** One listed worker, or null. */
export async function findWorker(redis: Redis, prefix: string, id: string): Promise<WorkerInfo | null> {
  if (!WORKER_ID.test(id)) return null;
  return parseWorker(id, await redis.hgetall(workerKey(prefix, id)));
}

/** Asks the worker process `id` to drain; resolves to how many processes heard it. */
export function requestWorkerDrain(redis: Redis, prefix: string, id: string): Promise<number> {
  return redis.publish(workerDrainChannel(prefix), id);
}
