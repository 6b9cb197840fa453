import { actionsJobId, checkOutputText, isFailingCheckState, type PullRequestTimelineEntry } from "@fixloop/contract";
import { pullRequestEvents } from "@fixloop/db";
import { githubForUser, type GithubClient, type Logger } from "@fixloop/runtime";
import type { WorkerContext } from "../context";
import { readJobLogTail } from "./check-log.read";

/** A completed check run as GitHub's REST API gives it (list for a ref, or get one). */
export interface CheckRunRead {
  id: number;
  name: string;
  status: string;
  conclusion: string | null;
  html_url: string | null;
  details_url?: string | null;
  completed_at: string | null;
  app?: { slug?: string } | null;
  output: { title: string | null; summary: string | null; text: string | null };
}

/**
 * A completed check run as a timeline entry: for a failing GitHub Actions job, with the tail of its
 * job's log (read with `gh`; a log that cannot be read leaves the check's own output, logged).
 */
export async function checkEntry(
  gh: GithubClient,
  logger: Logger,
  where: { owner: string; repo: string },
  run: CheckRunRead,
  signal?: AbortSignal,
): Promise<PullRequestTimelineEntry> {
  const jobId = isFailingCheckState(run.conclusion) ? actionsJobId(run) : null;
  let log: string | null = null;
  if (jobId !== null) {
    try {
      const read = await readJobLogTail(gh, { ...where, jobId }, signal);
      log = read.log;
      if (read.log === null) logger.warn({ ...where, jobId, reason: read.reason }, "job log not read");
    } catch (err) {
      logger.warn({ ...where, jobId, status: (err as { status?: number }).status }, "job log not read");
    }
  }
  return {
    kind: "check",
    sourceId: String(run.id),
    actor: null,
    state: (run.conclusion ?? "").slice(0, 40),
    title: run.name.slice(0, 300),
    body: checkOutputText(run.name, run.output, log),
    path: null,
    line: null,
    url: run.html_url ?? null,
    occurredAt: run.completed_at ?? new Date().toISOString(),
  };
}

/**
 * The webhook's follow-up for a failing GitHub Actions check run: the API records what the delivery
 * said and leaves the GitHub reads to a worker, which reads the check run again and its job's log
 * with the pull request owner's token and records the entry with the log's tail.
 */
export async function readCheckLog(
  job: { pullRequestId: string; checkRunId: number },
  ctx: WorkerContext,
  signal: AbortSignal,
): Promise<{ count: number }> {
  const pr = await pullRequestEvents.findForTimeline(ctx.db, job.pullRequestId);
  if (!pr) return { count: 0 };
  const [owner = "", repo = ""] = pr.repo_full_name.split("/");
  const { client: gh } = await githubForUser(ctx, pr.user_id);
  const { data: run } = await gh.rest.checks.get({ owner, repo, check_run_id: job.checkRunId, request: { signal } });
  if (run.status !== "completed" || !run.conclusion) return { count: 0 };
  await pullRequestEvents.recordEvent(ctx.db, pr.id, await checkEntry(gh, ctx.logger, { owner, repo }, run, signal));
  return { count: 1 };
}
