import type { Redis } from "ioredis";
import type { Logger } from "pino";
import {
  type ErrorBody,
  type IssueGone,
  issueGoneStop,
  jobIds,
  REPOSITORY_ACCESS_LOST,
  RUN_CANCELLED,
  runCancelChannel,
} from "@fixloop/contract";
import { issues, runs, type Db, type SolveRun } from "@fixloop/db";
import type { Queues } from "./queues";
import { openRunEventLog } from "./run.events";

/** What cancelling a run needs: Postgres for the flag, the queue and Redis for the job and the channel. */
export interface RunCancelDeps {
  db: Db;
  redis: Redis;
  queues: Pick<Queues, "prefix" | "solve">;
}

/**
 * Cancels a run, whoever asks (the user's Cancel, the ops page, an issue gone from GitHub, a
 * repository gone from the user's list). `error`
 * is stored with the request unless an earlier one stored its own: the run ends with the first
 * reason, whoever ends it. A queued run is ended here and its quota unit given back; a running one
 * is flagged in Postgres and announced on the cancel channel so the worker holding its job aborts
 * it (down to the model call) and ends it, giving the unit back. "ended" when the run had already
 * ended: nothing changes then.
 */
export async function cancelRun(
  deps: RunCancelDeps,
  run: Pick<SolveRun, "id">,
  error: ErrorBody = RUN_CANCELLED,
): Promise<"cancelled" | "cancelling" | "ended"> {
  const { db, redis, queues } = deps;
  if (!(await runs.requestCancel(db, run.id, error))) return "ended";
  // A queued run ends here, its quota unit given back in the same commit, with the reason of the
  // first request to stop it (this one, or one that came just before).
  const ended = await runs.cancelQueued(db, run.id, error);
  if (ended) {
    await queues.solve.remove(jobIds.solve(run.id)).catch(() => 0);
    const log = await openRunEventLog(redis, queues.prefix, run.id);
    await log.emit({ type: "cancelled", error: ended, at: new Date().toISOString() });
    return "cancelled";
  }
  await redis.publish(runCancelChannel(queues.prefix), run.id);
  return "cancelling";
}

/** A repository by its GitHub id, with its name (for GitHub's URLs and the logs). */
export interface RepositoryRef {
  githubId: number | string;
  fullName: string;
}

/**
 * Marks issue `number` of repository `repo` (by its GitHub id) gone for every user who has it (see
 * `issues.markGone`), then stops every solve or refine run of it still queued or running, of any
 * user: nothing more is spent on an issue GitHub no longer has, and no solution is written for it.
 * Runs are stopped also when the rows were already marked (a redelivery, or a marker that failed
 * before stopping them). Returns how many rows were newly marked.
 */
export async function markIssueGone(
  deps: RunCancelDeps & { logger: Pick<Logger, "info"> },
  repo: RepositoryRef,
  number: number,
  gone: { reason: IssueGone; movedTo?: string | null },
): Promise<number> {
  const marked = await issues.markGone(deps.db, repo.githubId, number, gone);
  const active = await runs.activeOfGoneIssue(deps.db, repo.githubId, number);
  for (const run of active) {
    const outcome = await cancelRun(deps, run, issueGoneStop(gone.reason));
    deps.logger.info({ runId: run.id, repo: repo.fullName, issue: number, outcome }, "run stopped: its issue is gone");
  }
  return marked;
}

/**
 * Stops the solve and refine runs still queued or running of issues whose repository left their
 * user's list (GitHub no longer shows it to them), of `userId` or of every user: the pull request
 * such a run leads to could no longer be opened, so nothing more is spent on it. Runs of imported
 * issues go on (they are solved in the user's fork). The removal marks the issues in its own
 * transaction, so the runs a sync that failed after it left going are stopped by the next sync or
 * sweep. Returns the runs it asked to stop.
 */
export async function stopRunsOfLeftRepositories(
  deps: RunCancelDeps & { logger: Pick<Logger, "info"> },
  userId?: string,
): Promise<string[]> {
  const active = await runs.activeOfLeftRepositories(deps.db, userId);
  for (const run of active) {
    const outcome = await cancelRun(deps, run, REPOSITORY_ACCESS_LOST);
    deps.logger.info(
      { runId: run.id, userId: run.user_id, outcome },
      "run stopped: its repository left the user's list",
    );
  }
  return active.map((r) => r.id);
}
