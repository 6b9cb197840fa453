import os from "node:os";
import crypto from "node:crypto";
import type { Job, Worker } from "bullmq";
import {
  RECENT_JOBS,
  removeWorkerHeartbeat,
  WORKER_HEARTBEAT_MS,
  workerDrainChannel,
  writeWorkerHeartbeat,
  type WorkerInfo,
  type WorkerState,
} from "@fixloop/runtime";
import type { SandboxCheck } from "@fixloop/contract";
import type { WorkerContext } from "./context";

/** Waits for `p` at most `ms`. */
const bounded = (p: Promise<void>, ms = 1_000) =>
  Promise.race([p, new Promise<void>((r) => setTimeout(r, ms).unref())]);

export interface Presence {
  readonly id: string;
  /** Resolves once the first heartbeat is written and the drain listener is subscribed. */
  readonly ready: Promise<void>;
  /** Writes the heartbeat now (a sandbox check just ended). */
  beat(): Promise<void>;
  /** Stops taking jobs, waits for the active ones, and says so in the heartbeat ("draining", then "drained"). */
  drain(): Promise<void>;
  /** Drains, then leaves the registry (the process is stopping). */
  stop(): Promise<void>;
}

/**
 * This process in the worker registry: a heartbeat every few seconds (host, pid, queues,
 * concurrency, active jobs, state, version), and a listener on the drain channel so an operator
 * can drain this one process. The process stays up once drained; it only takes no new job.
 */
export function startPresence(
  ctx: WorkerContext,
  workers: Worker[],
  concurrency: number,
  sandbox: () => SandboxCheck | null = () => null,
): Presence {
  const { redis, queues, logger } = ctx;
  const prefix = queues.prefix;
  const id = `${os.hostname().replace(/[^A-Za-z0-9._-]/g, "-")}-${process.pid}-${crypto.randomBytes(3).toString("hex")}`;
  const active = new Set<string>();
  /** The last jobs taken, newest first: what a lost worker was doing when it went. */
  const recent: string[] = [];
  const track = (w: Worker) => {
    const key = (job: Job | undefined) => `${w.name}:${job?.id ?? ""}`;
    w.on("active", (job) => {
      active.add(key(job));
      recent.unshift(`${w.name} #${job.id ?? ""}`);
      recent.splice(RECENT_JOBS);
      // Said at once: a process killed in the next seconds is listed as lost with this job.
      void beat();
    });
    w.on("completed", (job) => active.delete(key(job)));
    w.on("failed", (job) => active.delete(key(job)));
  };
  workers.forEach(track);
  const startedAt = new Date().toISOString();
  let state: WorkerState = "running";
  let stopped = false;
  const info = (): WorkerInfo => ({
    id,
    host: os.hostname(),
    pid: process.pid,
    queues: workers.map((w) => w.name),
    concurrency,
    activeJobs: active.size,
    state,
    version: ctx.env.FIXLOOP_VERSION,
    startedAt,
    heartbeatAt: new Date().toISOString(),
    sandbox: sandbox(),
    recentJobs: [...recent],
  });
  // While Redis is away a write waits; the ticks meanwhile are skipped rather than queued behind it.
  let pending: Promise<void> | null = null;
  const beat = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    pending ??= writeWorkerHeartbeat(redis, prefix, info())
      .catch((err: Error) => logger.warn({ err: err.message }, "worker heartbeat failed"))
      .finally(() => (pending = null));
    return pending;
  };
  /** A state change is written at once (same connection, so after any earlier beat). */
  const announce = () =>
    bounded(
      writeWorkerHeartbeat(redis, prefix, info()).catch((err: Error) =>
        logger.warn({ err: err.message }, "worker heartbeat failed"),
      ),
    );
  const first = beat();
  const timer = setInterval(() => void beat(), WORKER_HEARTBEAT_MS);
  timer.unref();

  let draining: Promise<void> | null = null;
  const drain = () => {
    draining ??= (async () => {
      state = "draining";
      logger.info({ workerId: id, active: active.size }, "worker draining: no new jobs");
      // Told at once, but never waited on for long: with Redis away, a shutdown must not hang on it.
      await announce();
      await Promise.all(workers.map((w) => w.close()));
      active.clear();
      state = "drained";
      logger.info({ workerId: id }, "worker drained");
      await announce();
    })();
    return draining;
  };

  const sub = redis.duplicate();
  sub.on("error", (err) => logger.warn({ err: err.message }, "drain subscriber connection error"));
  sub.on("message", (_channel: string, target: string) => {
    if (target === id) void drain();
  });
  const subscribed = sub.subscribe(workerDrainChannel(prefix)).then(
    () => {},
    (err: Error) => logger.error({ err: err.message }, "drain subscriber failed to start"),
  );

  return {
    id,
    beat: announce,
    ready: Promise.all([first, subscribed]).then(() => {}),
    drain,
    async stop() {
      await drain();
      stopped = true;
      clearInterval(timer);
      sub.disconnect();
      await bounded(removeWorkerHeartbeat(redis, prefix, id).catch(() => {}));
    },
  };
}
