import { CheckCircle2, ExternalLink, GitPullRequest, XCircle } from "lucide-react";
import { Card } from "../../ui/ui";

interface PullRequestLink {
  number: number;
  htmlUrl: string;
  status: "open" | "closed" | "merged";
  draft: boolean;
}

const PR_STATE = (pr: PullRequestLink) => (pr.status === "open" && pr.draft ? "draft" : pr.status);

/** A solution that is no longer pending: what was decided and where it went, instead of the review actions. */
export function DecidedPanel({ status, pullRequest }: { status: string; pullRequest: PullRequestLink | null }) {
  if (status === "rejected")
    return (
      <Card>
        <p role="status" className="flex items-center gap-2 font-medium">
          <XCircle className="size-5 text-red-700 dark:text-red-400" aria-hidden /> Rejected
        </p>
      </Card>
    );
  return (
    <Card>
      <p role="status" className="flex flex-wrap items-center gap-2 font-medium">
        <CheckCircle2 className="size-5 text-green-700 dark:text-green-400" aria-hidden />
        {pullRequest ? (
          <>
            Approved → PR #{pullRequest.number} ({PR_STATE(pullRequest)})
            <a
              href={pullRequest.htmlUrl}
              target="_blank"
              rel="noreferrer"
              className="inline-flex items-center gap-1 text-sm font-normal text-violet-800 underline dark:text-violet-300"
            >
              <GitPullRequest className="size-4" aria-hidden /> View pull request #{pullRequest.number}
              <ExternalLink className="size-3" aria-hidden />
            </a>
          </>
        ) : (
          "Approved; the pull request is being opened"
        )}
      </p>
    </Card>
  );
}
