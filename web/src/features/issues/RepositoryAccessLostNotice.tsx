import { Link } from "@tanstack/react-router";
import type { Issue } from "../../api/types";

/** Says that the issue's repository left the user's list (GitHub no longer shows it to them); nothing while it is listed. */
export function RepositoryAccessLostNotice({ issue }: { issue: Pick<Issue, "repositoryAccessLost"> }) {
  if (!issue.repositoryAccessLost) return null;
  return (
    <p className="mt-2 text-sm text-slate-700 first:mt-0 dark:text-slate-300" data-testid="repository-access-lost">
      You no longer have access to this issue&apos;s repository on GitHub, so it cannot be solved. If access is given
      back, it is listed again in{" "}
      <Link to="/repositories" className="underline">
        Repositories
      </Link>{" "}
      and its issues can be solved.
    </p>
  );
}
