import type { SolutionView } from "../../api/validations.queries";

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" });

/**
 * What tells one pending solution from another: where the issue is, when the solution was made,
 * how many candidates it came from, its revision, and its place among the issue's waiting ones.
 */
export function PendingCardFacts({ solution: s, all }: { solution: SolutionView; all: SolutionView[] }) {
  const siblings = all
    .filter((x) => x.issueId._id === s.issueId._id)
    .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
  const candidates = s.metadata.candidates?.requested ?? 1;
  return (
    <p
      data-testid="pending-facts"
      className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-sm text-slate-600 dark:text-slate-400"
    >
      <span className="font-medium text-slate-800 dark:text-slate-200">
        {s.issueId.repoFullName}#{s.issueId.issueNumber}
      </span>
      <span>
        Created <time dateTime={s.createdAt}>{when(s.createdAt)}</time>
      </span>
      <span>
        {candidates} {candidates === 1 ? "candidate" : "candidates"}
      </span>
      <span>Revision {s.revision}</span>
      {siblings.length > 1 && (
        <span className="font-medium text-orange-800 dark:text-orange-300">
          Solution {siblings.indexOf(s) + 1} of {siblings.length} for this issue
        </span>
      )}
    </p>
  );
}
