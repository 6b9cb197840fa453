import type { ReactNode } from "react";
import { Link } from "@tanstack/react-router";
import type { Action, ActionViews } from "@fixloop/contract";

/** The notice's test id by refusal code (pages and their tests find it by what it says). */
const TEST_ID: Record<string, string> = {
  "issue.deleted": "issue-gone",
  "issue.transferred": "issue-gone",
  "pull_request.issue_gone": "issue-gone",
  "repository.access_lost": "repository-access-lost",
  "issue.closed": "issue-closed",
  "issue.pull_request_open": "issue-pull-request-open",
};

/** What giving the repository back allows again, by the action it stopped. */
const ALLOWED_AGAIN: Record<Action, string> = {
  solve: "its issues can be solved",
  resume: "the run can be resumed",
  refine: "the solution can be refined",
  address: "the review can be addressed",
  approve: "the solution can be approved",
  push: "the revision can be pushed",
};

/**
 * Why the page does not offer an action: the reason the API serves for the first of `of` that the
 * issue's standing refuses (the API refuses it with the same words); nothing when all are allowed.
 * `except`: refusals the page says in its own way (an open pull request with its link). Where a
 * transferred issue went (the view serves it with the refusal) is linked after the reason.
 */
export function ActionNotice({
  actions,
  of,
  except = [],
  next,
}: {
  actions: ActionViews;
  of: readonly Action[];
  except?: readonly string[];
  /** What the page offers instead, on its own line under the reason (shown only with a refusal). */
  next?: ReactNode;
}) {
  const action = of.find((a) => {
    const v = actions[a];
    return !v.allowed && !except.includes(v.code);
  });
  const refusal = action && actions[action];
  if (!action || !refusal || refusal.allowed) return null;
  return (
    <p
      className="mt-2 text-sm break-words text-slate-700 first:mt-0 dark:text-slate-300"
      data-testid={TEST_ID[refusal.code] ?? "action-refused"}
    >
      {refusal.reason}.
      {refusal.code === "repository.access_lost" && (
        <>
          {" "}
          If access is given back, it is listed again in{" "}
          <Link to="/repositories" className="underline">
            Repositories
          </Link>{" "}
          and {ALLOWED_AGAIN[action]}.
        </>
      )}
      {refusal.movedTo && (
        <>
          {" "}
          <a href={refusal.movedTo} target="_blank" rel="noreferrer" className="underline">
            Where it went
          </a>
        </>
      )}
      {next && <span className="mt-3 block">{next}</span>}
    </p>
  );
}
