import { ACTIONS, type ErrorBody, issueGoneStop, standing, type StandingInput } from "@fixloop/contract";

/**
 * Whether a run a worker takes carries on, asked of the same table as the API's entry points: a
 * queued or interrupted run carrying on is resumed, so it is the issue's `resume` (GitHub no longer
 * having the issue refuses it). Null when it carries on; else how it ends cancelled, in the run's
 * own words (a gone issue's stop), before anything more is spent on it.
 */
export function runStopAtJobTime(issue: StandingInput): ErrorBody | null {
  const allowance = ACTIONS.resume(standing(issue));
  if (allowance.allowed) return null;
  return issue.gone ? issueGoneStop(issue.gone) : { code: allowance.code, message: allowance.reason };
}
