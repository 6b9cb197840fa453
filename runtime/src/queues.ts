import { PRIORITY_LIMIT, Queue, QueueEvents, type ConnectionOptions, type JobsOptions } from "bullmq";
import { jobIds, QUEUES, type QueueName, type JobPayload } from "@fixloop/contract";
import { runs, type Db } from "@fixloop/db";

/** Defaults from BullMQ's production checklist: keep failures for inspection, bounded history. */
export const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: 3,
  backoff: { type: "exponential", delay: 2_000 },
  removeOnComplete: { age: 24 * 3600, count: 1000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

export type TypedQueue<Q extends QueueName> = Queue<JobPayload<Q>, unknown, string>;

export interface Queues {
  prefix: string;
  solve: TypedQueue<"solve">;
  sync: TypedQueue<"sync">;
  fork: TypedQueue<"fork">;
  pullRequest: TypedQueue<"pull-request">;
  syntaxCheck: TypedQueue<"syntax-check">;
  testsRerun: TypedQueue<"tests-rerun">;
  backtest: TypedQueue<"backtest">;
  /** QueueEvents for waiting on job results; one shared connection per queue, created on first use. */
  events(name: QueueName): QueueEvents;
  all(): Queue[];
  close(): Promise<void>;
}

/**
 * Queue handles for enqueueing. Connection errors (e.g. during a Redis outage) go to `onError`
 * instead of surfacing as unhandled 'error' events; BullMQ reconnects by itself.
 */
export function createQueues(
  connection: ConnectionOptions,
  prefix: string,
  onError: (err: Error) => void = () => {},
): Queues {
  const mk = <Q extends QueueName>(name: Q) => {
    const q: TypedQueue<Q> = new Queue(name, { connection, prefix, defaultJobOptions: DEFAULT_JOB_OPTIONS });
    q.on("error", onError);
    return q;
  };
  const queues = {
    solve: mk(QUEUES.solve),
    sync: mk(QUEUES.sync),
    fork: mk(QUEUES.fork),
    pullRequest: mk(QUEUES.pullRequest),
    syntaxCheck: mk(QUEUES.syntaxCheck),
    testsRerun: mk(QUEUES.testsRerun),
    backtest: mk(QUEUES.backtest),
  };
  const events = new Map<QueueName, QueueEvents>();
  return {
    prefix,
    ...queues,
    events(name) {
      let ev = events.get(name);
      if (!ev) {
        ev = new QueueEvents(name, { connection, prefix });
        ev.on("error", onError);
        events.set(name, ev);
      }
      return ev;
    },
    all: (): Queue[] => Object.values(queues),
    async close() {
      await Promise.all([...events.values()].map((e) => e.close()));
      await Promise.all(Object.values(queues).map((q) => q.close()));
    },
  };
}

/** BullMQ connection options from a redis:// URL (workers need maxRetriesPerRequest null). */
export function redisConnection(url: string): ConnectionOptions {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: Number(u.port || 6379),
    username: u.username || undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    db: u.pathname.length > 1 ? Number(u.pathname.slice(1)) : undefined,
    tls: u.protocol === "rediss:" ? {} : undefined,
    maxRetriesPerRequest: null,
  };
}

/**
 * Queues a run's solve job under the run's fixed job id: solve, refine, resume and the sweeper all
 * go through here. `replace` removes the run's earlier job first (a job id is free only once it is gone).
 * The job's priority is its place among its user's open runs (1 for a user's first), so the waiting
 * runs of every user are taken in turn: a user with many runs queued cannot hold back another's first.
 */
export async function enqueueRun(
  deps: { db: Db; queues: Pick<Queues, "solve"> },
  runId: string,
  opts: { replace?: boolean } = {},
) {
  const jobId = jobIds.solve(runId);
  const place = await runs.queuePlace(deps.db, runId);
  const priority = Math.min((place?.ahead ?? 0) + 1, PRIORITY_LIMIT);
  if (opts.replace) await deps.queues.solve.remove(jobId);
  await deps.queues.solve.add("solve", { runId }, { jobId, priority });
}
