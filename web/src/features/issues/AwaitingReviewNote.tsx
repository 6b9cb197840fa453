import { Link } from "@tanstack/react-router";
import { ClipboardCheck } from "lucide-react";
import type { Issue } from "../../api/types";

/** Solve page: a solution already waits for the user's review; say so before offering another. */
export function AwaitingReviewNote({ issue }: { issue: Issue }) {
  if (!issue.awaitingReview) return null;
  return (
    <div
      role="note"
      aria-label="Solution awaiting review"
      className="mb-3 flex flex-wrap items-center gap-2 rounded-lg border border-orange-300 bg-orange-50 p-3 text-sm text-orange-950 dark:border-orange-800 dark:bg-orange-950/40 dark:text-orange-100"
    >
      <ClipboardCheck className="size-4 shrink-0" aria-hidden />
      <span>A solution for this issue is awaiting your review.</span>
      <Link
        to="/validations/$solutionId"
        params={{ solutionId: issue.awaitingReview.solutionId }}
        className="font-medium underline"
      >
        Review Solution
      </Link>
    </div>
  );
}
