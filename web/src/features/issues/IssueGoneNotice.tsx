import type { Issue } from "../../api/types";

/** Says that GitHub no longer has the issue (deleted, or transferred with a link to where it went); nothing when it has. */
export function IssueGoneNotice({ issue }: { issue: Pick<Issue, "gone" | "movedTo"> }) {
  if (!issue.gone) return null;
  return (
    <p className="mt-2 text-sm text-slate-700 first:mt-0 dark:text-slate-300" data-testid="issue-gone">
      {issue.gone === "deleted"
        ? "This issue was deleted on GitHub; it can no longer be solved."
        : "This issue was transferred to another repository on GitHub; import it from there to solve it."}{" "}
      {issue.movedTo && (
        <a href={issue.movedTo} target="_blank" rel="noreferrer" className="underline">
          Where it went
        </a>
      )}
    </p>
  );
}
