import { issues, pullRequests, solutions, users, type Claim, type Db, type PullRequest } from "@fixloop/db";
import { prErrors } from "./pull-requests.errors";

/** The user's solution (decoded) with its issue and the reviewer who signs the pull request. */
export async function loadSolution(db: Db, userId: string, solutionId: string) {
  const solution = await solutions.findOfUser(db, userId, solutionId);
  if (!solution) throw prErrors.notFound();
  const issue = await issues.find(db, solution.issue_id);
  if (!issue) throw new Error(`issue ${solution.issue_id} of solution ${solution.id} does not exist`);
  return { solution, issue, reviewer: await users.reviewer(db, userId) };
}

export async function findPullRequest(db: Db, solutionId: string): Promise<PullRequest | undefined> {
  return pullRequests.findBySolution(db, solutionId);
}

/** Stores the pull request and moves solution and issue to pr_created, all at once (under the job's claim). */
export async function savePullRequest(
  db: Db,
  claim: Claim | undefined,
  r: pullRequests.NewPullRequestRow,
): Promise<PullRequest> {
  return pullRequests.record(db, r, claim).catch((err: unknown) => {
    // Another solution's record holds this pull request: say so without the constraint's name.
    if ((err as { code?: string }).code === "23505") throw prErrors.duplicate();
    throw err;
  });
}
