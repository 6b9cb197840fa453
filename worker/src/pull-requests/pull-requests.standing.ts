import { ACTIONS, type JobErrorCode, type Standing, type StandingCondition } from "@fixloop/contract";
import { PullRequestError } from "./pull-requests.errors";

/** The job's own code for each refusal (a closed issue refuses neither an approval nor a push). */
const JOB_CODE: Record<StandingCondition, JobErrorCode> = {
  gone: "pull_request.issue_gone",
  repository_left: "repository.access_lost",
  closed: "pull_request.conflict",
  pull_request_open: "pull_request.conflict_open",
};

/**
 * The API's check of the standing asked again when the job runs (the issue may have gone,
 * its repository left the list or another pull request opened meanwhile), with the same table.
 */
export function assertAllowedAtJobTime(action: "approve" | "push", standing: Standing): void {
  const allowance = ACTIONS[action](standing);
  if (!allowance.allowed) throw new PullRequestError(JOB_CODE[allowance.condition], allowance.reason);
}
