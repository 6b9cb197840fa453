import { ExternalLink, GitPullRequest } from "lucide-react";
import type { Issue } from "../../api/types";
import { ConfirmDialog } from "../../ui/ConfirmDialog";

type LinkedPull = Issue["linkedPullRequests"][number];

/** "#7 by @octocat" (or "other/repo#7 …" when the pull request is in another repository). */
export function LinkedPullLink({ pull, repoFullName }: { pull: LinkedPull; repoFullName: string }) {
  const ref = pull.repoFullName.toLowerCase() === repoFullName.toLowerCase() ? "" : pull.repoFullName;
  return (
    <a
      href={pull.htmlUrl}
      target="_blank"
      rel="noreferrer"
      className="inline-flex items-center gap-1 font-medium text-amber-900 underline dark:text-amber-200"
    >
      {ref}#{pull.number} by @{pull.login}
      {pull.draft ? " (draft)" : ""}
      <ExternalLink className="size-3" aria-hidden />
    </a>
  );
}

/** Someone already has an open pull request for the issue: said before anyone solves it again. */
export function LinkedPullRequestsNotice({ issue, compact }: { issue: Issue; compact?: boolean }) {
  const pulls = issue.linkedPullRequests;
  if (pulls.length === 0) return null;
  return (
    <div
      role="note"
      aria-label="Open pull request for this issue"
      className={`flex flex-wrap items-center gap-x-2 gap-y-1 rounded-lg border border-amber-300 bg-amber-50 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100 ${compact ? "mt-3 p-2" : "mb-3 p-3"}`}
    >
      <GitPullRequest className="size-4 shrink-0" aria-hidden />
      <span>
        {pulls.length === 1
          ? "An open pull request already addresses this issue:"
          : "Open pull requests already address this issue:"}
      </span>
      {pulls.map((p, n) => (
        <span key={p.htmlUrl}>
          <LinkedPullLink pull={p} repoFullName={issue.repoFullName} />
          {n < pulls.length - 1 ? "," : ""}
        </span>
      ))}
    </div>
  );
}

/** Asked on "Generate Solution" when someone's pull request is already open for the issue; the user may still go on. */
export function LinkedPullConfirm({
  issue,
  open,
  onConfirm,
  onCancel,
}: {
  issue: Issue;
  open: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <ConfirmDialog
      open={open}
      title="A pull request is already open"
      confirmLabel="Generate Anyway"
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p>
        {issue.linkedPullRequests.length === 1
          ? "An open pull request already addresses this issue:"
          : "Open pull requests already address this issue:"}
      </p>
      <ul className="list-disc pl-5">
        {issue.linkedPullRequests.map((p) => (
          <li key={p.htmlUrl}>
            <LinkedPullLink pull={p} repoFullName={issue.repoFullName} />
          </li>
        ))}
      </ul>
      <p>Check it before generating another fix: maintainers rarely merge two pull requests for one issue.</p>
    </ConfirmDialog>
  );
}
