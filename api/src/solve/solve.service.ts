import { type RunMode, type SetupNetworkChoice, standing } from "@fixloop/contract";
import { findOpenPullRequestForIssue, issues, isUuid, solutions, users } from "@fixloop/db";
import type { AppDeps } from "../deps";
import { startAndEnqueue } from "./runs.start";
import { solveErrors } from "./solve.errors";
import { allowedModel } from "./solve.model-access";
import { assertContributionAllowed, assertInstallationActive, assertIssueOnGithub } from "./solve.policy";
import { setupNetworkChoice } from "./solve.setup-network";
import { assertBranchExists, baseRepoOf } from "../issues/issues.branches";
import { assertAllowed } from "../issues/issues.standing";

export type StartRunDeps = AppDeps;

/**
 * Checks, in order: the issue is the caller's, its standing allows a solve (the contract's
 * `ACTIONS` table: not known gone, its repository still listed, not closed, no open pull request),
 * GitHub still has it, no solution of it awaits review (unless `solveAgain`), the model is known, the plan allows
 * it, the quota has room. Then creates the run with its
 * quota reservation in one transaction and enqueues its job. An issue with an active run answers
 * that run instead (the partial unique index settles races).
 */
export async function startRun(
  deps: StartRunDeps,
  userId: string,
  input: {
    issueId: string;
    modelId: string;
    setupNetwork?: SetupNetworkChoice;
    candidates?: number;
    mode?: RunMode;
    baseBranch?: string;
    /** Solve even though a solution of the issue awaits review (the new one is listed beside it). */
    solveAgain?: boolean;
  },
): Promise<{ runId: string; existing: boolean }> {
  const { db } = deps;
  const issue = isUuid(input.issueId) ? await issues.findForRun(db, userId, input.issueId) : undefined;
  if (!issue) throw solveErrors.issueNotFound();
  // Nothing is reserved or spent on a run that can only be refused or fail.
  assertAllowed("solve", standing(issue, { pullRequestOpen: !!(await findOpenPullRequestForIssue(db, issue.id)) }));
  await assertInstallationActive(deps, userId, issue);
  await assertIssueOnGithub(deps, userId, issue);
  await assertContributionAllowed(deps, userId, issue);
  const model = await allowedModel(deps, db, userId, input.modelId);
  const network = await setupNetworkChoice(db, userId, issue, input.setupNetwork);
  const candidates = input.candidates ?? (await users.defaultCandidates(db, userId));
  const mode = input.mode ?? (await users.defaultRunMode(db, userId));
  const { baseBranch } = input;
  if (baseBranch) await assertBranchExists(deps, userId, baseRepoOf(issue), baseBranch);
  // Asked last: a refusal (policy, model, branch) says why the solve cannot start at all.
  if (!input.solveAgain) {
    const waiting = await solutions.awaitingReviewOf(db, issue.id);
    if (waiting) throw solveErrors.awaitingReview(waiting);
  }

  // A repeated request for an issue already being solved costs nothing and answers the same run.
  const outcome = await startAndEnqueue(deps, async () => ({
    userId,
    issueId: issue.id,
    modelId: model.id,
    kind: "solve",
    // One candidate stays the run input it always was.
    input: {
      ...network.input,
      ...(candidates > 1 && { candidates }),
      // A single pass stays the run input it always was.
      ...(mode === "investigate" && { mode }),
      ...(baseBranch && { baseBranch }),
    },
  }));
  if (outcome.status === "over_quota") throw solveErrors.usageLimit();
  if (outcome.status === "active" && outcome.cancelling) throw solveErrors.stillCancelling();
  if (outcome.status === "started") await network.save();
  return { runId: outcome.runId, existing: outcome.status === "active" };
}
