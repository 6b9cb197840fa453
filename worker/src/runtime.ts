import { sweepCgroups } from "./tests-run/sandbox.cgroup";
import { sweepWorkspaces } from "./tests-run/workspace";
import { testsConfig } from "./tests-run/tests.config";
import { MetricsTime, Worker, type Job } from "bullmq";
import { JOB_SCHEMAS, QUEUES, type QueueName } from "@fixloop/contract";
import { jobFailed, redisConnection } from "@fixloop/runtime";
import type { WorkerContext } from "./context";
import { PROCESSORS } from "./processors";
import { startCancelSubscriber } from "./pipeline/cancel.subscriber";
import { startSweeper } from "./pipeline/sweeper";
import { JOB_LOCK_LOST } from "./job.lock";
import { endGivenUpBacktest } from "./processors/backtest.processor";
import { recordJobMetrics } from "./metrics/job.metrics";
import { startPresence, type Presence } from "./presence";
import { schedulePullRequestPoll } from "./sync/pull-requests.poll";
import { queueInstallationsCatchUp } from "./sync/installations.catch-up";
import { startSandboxGate, type SandboxGate } from "./selfcheck/selfcheck.gate";
import type { BwrapOptions } from "./tests-run/sandbox.bwrap";

/** The queues whose jobs run repository code: taken only while this worker's sandbox self-check passes. */
const SANDBOX_GATED: ReadonlySet<string> = new Set<QueueName>([QUEUES.solve, QUEUES.testsRerun]);

/**
 * The queues whose jobs stop when this worker loses their lock: their duplicate work spends (model
 * calls, sandbox runs) or would write a result under the new holder. The others (sync, fork,
 * syntax checks) are cheap and write idempotently, so they finish as they are.
 */
const LOCK_LOSS_ABORTS: ReadonlySet<string> = new Set<QueueName>([
  QUEUES.solve,
  QUEUES.backtest,
  QUEUES.testsRerun,
  QUEUES.pullRequest,
]);

export interface RunningWorkers {
  workers: Worker[];
  /** This process in the worker registry (heartbeat, drain on request). */
  presence: Presence;
  /** The sandbox self-check of a process serving solve or tests-rerun (null otherwise). */
  sandboxGate: SandboxGate | null;
  /** Stops taking jobs and waits for active ones. */
  close(): Promise<void>;
  /**
   * Moves every job still running here back to the waiting list at once (their locks go with
   * them), for a drain that ran out of time: another worker resumes each run from its stored
   * steps instead of waiting for the lock to expire and the job to be found stalled. Returns how
   * many jobs went back; the process must exit right after.
   */
  handBack(): Promise<number>;
}

/** How BullMQ keeps a job's lock and finds a job whose worker stopped renewing it. */
export interface StallTimings {
  lockDuration: number;
  stalledInterval: number;
  /** Stalls a job may have before BullMQ gives it up (fails it "job stalled more than allowable limit"). */
  maxStalledCount: number;
}

/** A stalled job (its worker died) goes back to the queue quickly. */
const STALL_TIMINGS: StallTimings = { stalledInterval: 5_000, maxStalledCount: 3, lockDuration: 15_000 };

/**
 * Starts one BullMQ Worker per served queue; payloads are validated before any processor runs.
 * `stalls` overrides STALL_TIMINGS, so a test can see a stall found and a job given up in seconds.
 */
export function startWorkers(
  ctx: WorkerContext,
  opts: {
    queues?: QueueName[];
    concurrency?: number;
    stalls?: Partial<StallTimings>;
    /** Bubblewrap options of the sandbox self-check (a test removes a wall through it). */
    sandboxCheck?: BwrapOptions;
  } = {},
): RunningWorkers {
  const names = opts.queues?.length ? opts.queues : (Object.values(QUEUES) as QueueName[]);
  if (names.includes(QUEUES.solve)) {
    // Half-built base trees and run copies left by a crashed worker would only take space.
    sweepWorkspaces(testsConfig(ctx.env).cache, (name, err) =>
      ctx.logger.warn({ workspace: name, err: err.message }, "a workspace left by an earlier run could not be removed"),
    ).then(
      (n) => n && ctx.logger.info({ removed: n }, "removed workspaces left by an earlier crash"),
      (err: Error) => ctx.logger.warn({ err: err.message }, "workspace sweep failed"),
    );
    void sweepCgroups().then(
      (n) => n && ctx.logger.info({ removed: n }, "removed sandbox cgroups left by an earlier crash"),
    );
  }
  const connection = redisConnection(ctx.env.REDIS_URL);
  const active = new Map<Job, string>();
  const concurrency = opts.concurrency ?? ctx.env.WORKER_CONCURRENCY;
  const workers = names.map((name) => {
    const processor = PROCESSORS[name];
    const worker = new Worker(
      name,
      async (job: Job, token?: string, signal?: AbortSignal) => {
        const parsed = JOB_SCHEMAS[name].safeParse(job.data);
        if (!parsed.success)
          throw jobFailed({
            code: "job.invalid_payload",
            message: `Invalid ${name} job payload: ${parsed.error.issues[0]?.message}`,
            retryable: false,
          });
        if (token) active.set(job, token);
        try {
          return await processor(job, ctx, signal ?? new AbortController().signal, token);
        } finally {
          active.delete(job);
        }
      },
      {
        connection,
        prefix: ctx.queues.prefix,
        concurrency,
        // Started by the sandbox gate once the self-check passes.
        autorun: !SANDBOX_GATED.has(name),
        // Finished jobs per minute, kept a day: the operations page's throughput chart.
        metrics: { maxDataPoints: MetricsTime.ONE_HOUR * 24 },
        ...STALL_TIMINGS,
        ...opts.stalls,
      },
    );
    worker.on("failed", (job, err) => ctx.logger.warn({ queue: name, jobId: job?.id, err: err.message }, "job failed"));
    worker.on("error", (err) => ctx.logger.error({ queue: name, err: err.message }, "worker error"));
    recordJobMetrics(worker, name, ctx);
    return worker;
  });
  // Solve runs: cancel requests from any API process.
  const solveWorker = workers.find((w) => w.name === QUEUES.solve);
  const cancelSub = solveWorker ? startCancelSubscriber(ctx.redis, ctx.queues.prefix, solveWorker, ctx.logger) : null;
  cancelSub?.catch((err: Error) => ctx.logger.error({ err: err.message }, "cancel subscriber failed to start"));
  // A lock BullMQ could not renew (the event loop was blocked past it, Redis was away) has lapsed:
  // the job is found stalled and handed to another worker, so this one aborts the job at once
  // instead of spending model budget or sandbox time on it a second time. Each of these queues'
  // processors stops on that reason and writes nothing more, leaving the job to its new holder.
  for (const worker of workers.filter((w) => LOCK_LOSS_ABORTS.has(w.name)))
    worker.on("lockRenewalFailed", (jobIds) => {
      for (const jobId of jobIds)
        if (worker.cancelJob(jobId, JOB_LOCK_LOST))
          ctx.logger.warn(
            { queue: worker.name, jobId, code: JOB_LOCK_LOST },
            "could not renew the job's lock: its work is aborted here",
          );
    });
  // A backtest's job given up by BullMQ ends its backtest (and the solve runs it left running).
  workers
    .find((w) => w.name === QUEUES.backtest)
    ?.on("failed", (job) => {
      endGivenUpBacktest(job, ctx).catch((err: Error) =>
        ctx.logger.warn({ jobId: job?.id, err: err.message }, "a given-up backtest could not be ended"),
      );
    });
  // The reconcilers (runs no job holds, backtests whose job was lost, ...) each on its own interval, in
  // every process serving one of their queues: a deployment whose backtests run apart from its
  // solves still ends theirs.
  const sweeper = startSweeper(ctx, names);
  if (names.includes(QUEUES.sync)) {
    schedulePullRequestPoll(ctx).catch((err: Error) =>
      ctx.logger.warn({ err: err.message }, "the pull-request poll could not be scheduled"),
    );
    // Installation events GitHub sent while Fixloop was down are read back from GitHub.
    queueInstallationsCatchUp(ctx).catch((err: Error) =>
      ctx.logger.warn({ err: err.message }, "the installations catch-up could not be queued"),
    );
  }
  const gated = workers.filter((w) => SANDBOX_GATED.has(w.name));
  // onCheck runs only once a check has ended, after `presence` is set.
  const gate = gated.length
    ? startSandboxGate(ctx, gated, { bwrap: opts.sandboxCheck, onCheck: () => void presence.beat() })
    : null;
  const presence = startPresence(ctx, workers, concurrency, () => gate?.last ?? null);
  return {
    workers,
    presence,
    sandboxGate: gate,
    async close() {
      gate?.stop();
      sweeper?.stop();
      await presence.stop();
      await (await cancelSub?.catch(() => null))?.close();
      await Promise.all(workers.map((w) => w.close()));
    },
    async handBack() {
      const held = [...active];
      active.clear();
      const moved = await Promise.all(
        held.map(([job, token]) =>
          job.moveToWait(token).then(
            () => 1,
            (err: Error) => {
              ctx.logger.warn({ jobId: job.id, err: err.message }, "a job could not be handed back");
              return 0;
            },
          ),
        ),
      );
      return moved.reduce<number>((a, b) => a + b, 0);
    },
  };
}
