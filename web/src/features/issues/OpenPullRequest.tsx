import { ExternalLink, GitPullRequest } from "lucide-react";
import type { Issue } from "../../api/types";

type OpenPr = NonNullable<Issue["openPullRequest"]>;

/** A link to the pull request already open for an issue. */
export function OpenPullRequestLink({ pr }: { pr: OpenPr }) {
  return (
    <a
      href={pr.htmlUrl}
      target="_blank"
      rel="noreferrer"
      className="inline-flex items-center gap-1 text-sm text-violet-800 underline dark:text-violet-300"
    >
      <GitPullRequest className="size-4" aria-hidden /> PR #{pr.number} {pr.draft ? "draft" : "open"}
      <ExternalLink className="size-3" aria-hidden />
    </a>
  );
}

/** Solve page: say a pull request already exists, and how to change it, instead of offering another solution. */
export function OpenPullRequestNotice({ pr }: { pr: OpenPr }) {
  return (
    <div
      role="status"
      className="mb-3 flex flex-wrap items-center gap-2 rounded-lg border border-violet-300 bg-violet-50 p-3 text-sm dark:border-violet-800 dark:bg-violet-950/40"
    >
      <GitPullRequest className="size-4 text-violet-700 dark:text-violet-300" aria-hidden />
      <span>A {pr.draft ? "draft " : ""}pull request for this issue is already open.</span>
      <a
        href={pr.htmlUrl}
        target="_blank"
        rel="noreferrer"
        className="font-medium text-violet-800 underline dark:text-violet-300"
      >
        View pull request #{pr.number}
      </a>
      <span className="basis-full">
        Update it on GitHub, or close it there to generate a new solution: a second pull request for the same issue is
        not opened.
      </span>
    </div>
  );
}
