import { Link } from "@tanstack/react-router";
import { ClipboardCheck, ExternalLink, Sparkles, Tag } from "lucide-react";
import type { Issue } from "../../api/types";
import { Badge, Card, CardHeader, LabelList, buttonClass } from "../../ui/ui";
import { issueBadge } from "./issue-status";
import { LinkedPullRequestsNotice } from "./LinkedPullRequests";
import { InlineMarkdown } from "../../ui/Markdown";
import { ActionNotice } from "./ActionNotice";

/** One issue of the Issues page's list. */
export function IssueCard({ issue }: { issue: Issue }) {
  const badge = issueBadge(issue);
  const review = issue.awaitingReview;
  return (
    <Card>
      <CardHeader
        title={<InlineMarkdown>{issue.title}</InlineMarkdown>}
        meta={`#${issue.issueNumber} · ${issue.repoFullName}`}
        badges={
          <>
            {review?.unverified && <Badge tone="red">Unverified</Badge>}
            <Badge tone={badge.tone}>{badge.label}</Badge>
          </>
        }
      />
      <LabelList labels={issue.labels} />
      {review?.unverified && (
        <p className="mt-2 text-sm text-red-800 dark:text-red-300" data-testid="unverified-reason">
          The solution awaiting review is unverified: {review.unverified}
        </p>
      )}
      {/* A closed issue's badge says so; its open pull request is its status. */}
      <ActionNotice actions={issue.actions} of={["solve"]} except={["issue.closed", "issue.pull_request_open"]} />
      <LinkedPullRequestsNotice issue={issue} compact />
      {issue.startedByLabel !== null && (
        <p
          className="mt-2 flex items-center gap-1.5 text-sm text-slate-700 dark:text-slate-300"
          data-testid="issue-run-trigger"
        >
          <Tag className="size-4 shrink-0" aria-hidden />
          <span>
            Started by the <span className="font-mono font-medium">{issue.startedByLabel || "solve"}</span> label
          </span>
        </p>
      )}
      <div className="mt-3 flex flex-wrap gap-2">
        {review && (
          <Link
            to="/validations/$solutionId"
            params={{ solutionId: review.solutionId }}
            className={buttonClass("primary")}
            aria-label={`Review Solution: ${issue.title}`}
          >
            <ClipboardCheck className="size-4" aria-hidden /> Review Solution
          </Link>
        )}
        {issue.actions.solve.allowed && (
          <Link
            to="/issues/$issueId/solve"
            params={{ issueId: issue._id }}
            className={buttonClass(review ? "secondary" : "primary")}
            aria-label={`Solve with AI: ${issue.title}`}
          >
            <Sparkles className="size-4" aria-hidden /> Solve with AI
          </Link>
        )}
        {issue.status === "solved" && !review && (
          <Link to="/validations" className={buttonClass("secondary")}>
            View Solution
          </Link>
        )}
        {issue.status === "pr_created" && (
          <Link to="/pull-requests" className={buttonClass("secondary")}>
            View PR
          </Link>
        )}
        <a href={issue.htmlUrl} target="_blank" rel="noreferrer" className={buttonClass("ghost")}>
          <ExternalLink className="size-4" aria-hidden /> View on GitHub
        </a>
      </div>
    </Card>
  );
}
