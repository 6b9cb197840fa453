import { domain, jobIds, type SetupNetworkChoice, findModel, modelsConfigFromEnv } from "@fixloop/contract";
import { type Db } from "@fixloop/db";
import { findOpenPullRequestForIssue } from "@fixloop/db";
import { currentUsagePeriod, reserveQuota, runs } from "@fixloop/db";
import { notifyUsageThreshold } from "@fixloop/db";
import type { AppDeps } from "../deps";
import { isUuid } from "./runs.repository";
import { solveErrors } from "./solve.errors";
import { assertContributionAllowed } from "./solve.policy";
import { setupNetworkChoice } from "./solve.setup-network";

const ACTIVE = domain.ACTIVE_RUN_STATUSES;

export type StartRunDeps = AppDeps;

/** The issue's active run; one being cancelled is no answer to a new request (that would be lost with it). */
async function activeRunId(db: Db, issueId: string): Promise<string | undefined> {
  const r = await db
    .selectFrom("solve_runs")
    .select(["id", "cancel_requested_at"])
    .where("issue_id", "=", issueId)
    .where("status", "in", ACTIVE)
    .executeTakeFirst();
  if (r?.cancel_requested_at) throw solveErrors.stillCancelling();
  return r?.id;
}

/**
 * Checks, in order: the issue is the caller's, it is not closed and has no open pull request, the model is known, the plan
 * allows it, the quota has room. Then creates the run with its quota reservation in one
 * transaction and enqueues its job. An issue with an active run answers that run instead
 * (the partial unique index settles races).
 */
export async function startRun(
  deps: StartRunDeps,
  userId: string,
  input: { issueId: string; modelId: string; setupNetwork?: SetupNetworkChoice },
): Promise<{ runId: string; existing: boolean }> {
  const { db } = deps;
  const issue = isUuid(input.issueId)
    ? await db
        .selectFrom("issues")
        .select(["id", "status", "state", "is_imported", "upstream_full_name", "repo_full_name", "fork_full_name"])
        .where("id", "=", input.issueId)
        .where("user_id", "=", userId)
        .executeTakeFirst()
    : undefined;
  if (!issue) throw solveErrors.issueNotFound();
  if (issue.status === "closed" || issue.state === "closed") throw solveErrors.issueClosed();
  if (await findOpenPullRequestForIssue(db, issue.id)) throw solveErrors.pullRequestOpen();
  await assertContributionAllowed(deps, userId, issue);
  const model = findModel(modelsConfigFromEnv(deps.env), input.modelId);
  if (!model) throw solveErrors.unknownModel(input.modelId);
  const period = await currentUsagePeriod(db, userId);
  if (!domain.planAllowsProvider(period.plan, model.provider)) throw solveErrors.premiumRequired();
  const network = await setupNetworkChoice(db, userId, issue, input.setupNetwork);

  // A repeated request for an issue already being solved costs nothing and answers the same run.
  const active = await activeRunId(db, issue.id);
  if (active) return { runId: active, existing: true };

  let runId: string;
  let used = 0;
  try {
    runId = await db.transaction().execute(async (trx) => {
      const reserved = await reserveQuota(trx, userId, period.plan, { periodStart: period.periodStart });
      if (!reserved) throw solveErrors.usageLimit();
      used = reserved.used;
      return runs.create(trx, {
        user_id: userId,
        issue_id: issue.id,
        model_id: model.id,
        kind: "solve",
        quotaPeriodStart: reserved.periodStart,
        input: network.input,
      });
    });
  } catch (err) {
    if ((err as { code?: string }).code === "23505") {
      const winner = await activeRunId(db, issue.id);
      if (winner) return { runId: winner, existing: true };
    }
    throw err;
  }
  await network.save();
  try {
    await deps.queues.solve.add("solve", { runId }, { jobId: jobIds.solve(runId) });
  } catch (err) {
    // Without a job the run would wait for the sweeper; fail it now and give the quota back.
    await runs.failUnqueued(db, runId);
    throw err;
  }
  // The 80% notice goes out as soon as the reservation crosses it (once per period).
  await notifyUsageThreshold(db, userId, { plan: period.plan, periodStart: period.periodStart, used }).catch(
    (err: Error) => deps.logger.warn({ err: err.message }, "usage notification failed"),
  );
  return { runId, existing: false };
}
