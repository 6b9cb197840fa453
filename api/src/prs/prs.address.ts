import { issues, isUuid, reviewAddressing, runs, solutions } from "@fixloop/db";
import { jobIds, standing } from "@fixloop/contract";
import type { AppDeps } from "../deps";
import { runJob } from "../jobs/jobs.run";
import { refineSolution } from "../solutions/solutions.refine";
import { assertAllowed } from "../issues/issues.standing";
import { prErrors } from "./prs.errors";
import { reviewFeedback } from "./prs.feedback";
import type { AddressReviewBody } from "./prs.schemas";

async function ownedOpen(deps: Pick<AppDeps, "db">, userId: string, id: string) {
  const pr = isUuid(id) ? await reviewAddressing.findOwnedPullRequest(deps.db, userId, id) : undefined;
  if (!pr) throw prErrors.notFound();
  if (pr.status !== "open") throw prErrors.notOpen(pr.status);
  return pr;
}

/**
 * "Address review": a refinement of the pull request's solution whose feedback is the chosen
 * review comments and the failing checks. Started like any refinement (quota, one run per issue);
 * the comments are marked as asked for in the same transaction, so the push that follows replies
 * on their threads. Nothing is written when the refinement cannot start.
 */
export async function addressReview(
  deps: Pick<AppDeps, "db" | "queues" | "logger" | "env">,
  userId: string,
  id: string,
  body: AddressReviewBody,
) {
  const pr = await ownedOpen(deps, userId, id);
  const open = await reviewAddressing.openReviewComments(deps.db, pr.id);
  const wanted = body.all ? open.map((c) => c.source_id) : [...new Set(body.commentIds ?? [])];
  const unknown = wanted.find((w) => !open.some((c) => c.source_id === w));
  if (unknown !== undefined) throw prErrors.unknownComment(unknown);
  const chosen = open.filter((c) => wanted.includes(c.source_id));
  const checks = await reviewAddressing.failingChecks(deps.db, pr.id);
  if (chosen.length === 0 && !(body.all && checks.length > 0)) throw prErrors.emptySelection();
  const started = await refineSolution(
    deps,
    userId,
    pr.solution_id,
    { feedback: reviewFeedback(chosen, checks) },
    {
      status: "pr_created",
      action: "address",
      within: async (trx) => {
        const locked = await reviewAddressing.findOwnedPullRequest(trx, userId, pr.id, { lock: true });
        if (locked?.status !== "open") throw prErrors.notOpen(locked?.status ?? "gone");
        await reviewAddressing.requestAddressing(
          trx,
          pr.id,
          chosen.map((c) => c.source_id),
        );
      },
    },
  );
  return { ...started, solutionId: pr.solution_id, comments: chosen.length, checks: checks.length };
}

/**
 * The user's approval of the solution's newest revision for the open pull request: the
 * pull-request job pushes it as a new commit on the same branch (never a second pull request).
 */
export async function pushReviewedRevision(deps: AppDeps, userId: string, id: string) {
  const pr = await ownedOpen(deps, userId, id);
  const solution = await solutions.findOfUser(deps.db, userId, pr.solution_id);
  if (!solution) throw prErrors.notFound();
  // As an approval: the push goes to the repository itself, which GitHub no longer lets the user at.
  assertAllowed("push", standing((await issues.findForRun(deps.db, userId, solution.issue_id)) ?? {}));
  if (await runs.activeOf(deps.db, solution.issue_id)) throw prErrors.runOpen();
  if (pr.pushed_revision !== null && solution.revision <= pr.pushed_revision)
    throw prErrors.nothingToPush(solution.revision);
  const outcome = await runJob(
    deps,
    "pull-request",
    { userId, solutionId: solution.id, revision: solution.revision },
    { jobId: jobIds.pushRevision(solution.id, solution.revision), attempts: 3 },
  );
  if (!outcome.done) return { status: "queued" as const, jobId: outcome.jobId };
  return {
    status: "pushed" as const,
    revision: solution.revision,
    commitSha: outcome.value?.commitSha ?? null,
    replies: outcome.value?.replies ?? 0,
    githubUrl: outcome.value?.githubUrl ?? null,
  };
}
