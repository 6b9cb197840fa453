import { Link } from "@tanstack/react-router";
import type { Issue } from "../../api/types";

const WORDS = {
  solved: ["it cannot be solved", "its issues can be solved"],
  reviewed: [
    "its solution can be neither refined nor opened as a pull request",
    "the solution can be refined and approved",
  ],
  addressed: ["its solution cannot be refined to address this review", "the review can be addressed"],
  pushed: ["no revision can be pushed to its pull request", "the revision can be pushed"],
} as const;

/**
 * Says that the issue's repository left the user's list (GitHub no longer shows it to them); nothing
 * while it is listed. `refused`: what the API refuses for it here, a solve (issue pages), a
 * refinement and the pull request of its solution (the review page), the refinement that
 * addresses its pull request's review (the pull requests page) or the push of the revision that
 * addressed it (the review page); the words follow the API's refusals.
 */
export function RepositoryAccessLostNotice({
  issue,
  refused = "solved",
}: {
  issue: Pick<Issue, "repositoryAccessLost">;
  refused?: keyof typeof WORDS;
}) {
  if (!issue.repositoryAccessLost) return null;
  const [cannot, can] = WORDS[refused];
  return (
    <p className="mt-2 text-sm text-slate-700 first:mt-0 dark:text-slate-300" data-testid="repository-access-lost">
      You no longer have access to this issue&apos;s repository on GitHub, so {cannot}. If access is given back, it is
      listed again in{" "}
      <Link to="/repositories" className="underline">
        Repositories
      </Link>{" "}
      and {can}.
    </p>
  );
}
