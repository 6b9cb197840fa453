import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { FolderGit2, GitFork, ListTodo } from "lucide-react";
import { issuesQuery } from "../../api/issues.queries";
import { pullRequestsQuery as prsQuery } from "../../api/prs.queries";
import { pendingValidationsQuery } from "../../api/validations.queries";
import { DASHBOARD_QUERY } from "../../api/query-client";
import { Badge, Button, Card, EmptyState, PageHeader, Spinner, buttonClass } from "../../ui/ui";
import { dashboardBadge } from "../issues/issue-status";
import { successRate } from "./success-rate";
import type { Issue } from "../../api/types";
import { InlineMarkdown } from "../../ui/Markdown";
import { OpenPullRequestLink } from "../issues/OpenPullRequest";

/** Recent Activity: the issues that changed last (status, solutions, pull requests), newest first. */
const recentlyChanged = (issues: Issue[]) =>
  [...issues].sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt)).slice(0, 4);

export function DashboardPage() {
  const issues = useQuery({ ...issuesQuery(), ...DASHBOARD_QUERY });
  const prs = useQuery({ ...prsQuery(), ...DASHBOARD_QUERY });
  const pending = useQuery({ ...pendingValidationsQuery(), ...DASHBOARD_QUERY });
  if (issues.isError || prs.isError || pending.isError) {
    return (
      <div role="alert" className="mx-auto max-w-md py-16 text-center">
        <h1 className="text-xl font-semibold">Failed to load dashboard</h1>
        <p className="mt-2 text-slate-700 dark:text-slate-300">
          There was an error loading your data. Please try refreshing the page.
        </p>
        <Button className="mt-4" onClick={() => window.location.reload()}>
          Refresh Page
        </Button>
      </div>
    );
  }
  if (!issues.data || !prs.data || !pending.data) return <Spinner label="Loading dashboard..." />;
  const allIssues = issues.data.issues;
  const counts = issues.data.counts;
  const rate = successRate(counts?.completed ?? 0, prs.data.pullRequests);
  const stat = "block rounded-xl border border-slate-200 p-4 hover:border-violet-400 dark:border-slate-800";
  return (
    <>
      <PageHeader title="Dashboard" />
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Link to="/issues" className={stat}>
          <p className="text-sm text-slate-600 dark:text-slate-400">Total Issues</p>
          <p className="text-3xl font-semibold">{counts?.all ?? allIssues.length}</p>
        </Link>
        <Link to="/validations" className={stat}>
          <p className="text-sm text-slate-600 dark:text-slate-400">Pending Validations</p>
          <p className="text-3xl font-semibold">{pending.data.solutions.length}</p>
        </Link>
        <Link to="/pull-requests" className={stat}>
          <p className="text-sm text-slate-600 dark:text-slate-400">Pull Requests</p>
          <p className="text-3xl font-semibold">{prs.data.pullRequests.length}</p>
        </Link>
        <div className="rounded-xl border border-slate-200 p-4 dark:border-slate-800">
          <p className="text-sm text-slate-600 dark:text-slate-400">Success Rate</p>
          <p className="text-3xl font-semibold">{rate.percent === null ? "—" : `${rate.percent}%`}</p>
          <p className="text-xs text-slate-600 dark:text-slate-400" data-testid="success-basis">
            {rate.completed === 0
              ? "No completed solutions yet"
              : `${rate.landed} open or merged PRs of ${rate.completed} completed solutions`}
          </p>
        </div>
      </div>
      <Card className="mt-6">
        <h2 className="font-semibold">Quick actions</h2>
        <div className="mt-3 flex flex-wrap gap-2">
          <Link to="/contribute" className={buttonClass("secondary")}>
            <GitFork className="size-4" aria-hidden /> Contribute to Open Source
          </Link>
          <Link to="/repositories" className={buttonClass("secondary")}>
            <FolderGit2 className="size-4" aria-hidden /> Sync My Repositories
          </Link>
          <Link to="/issues" className={buttonClass("secondary")}>
            <ListTodo className="size-4" aria-hidden /> View All Issues
          </Link>
        </div>
      </Card>
      <section className="mt-6" aria-labelledby="recent-title">
        <h2 id="recent-title" className="mb-3 font-semibold">
          Recent Activity
        </h2>
        {allIssues.length === 0 ? (
          <>
            <EmptyState title="No issues yet">Sync a repository or import an issue to get started.</EmptyState>
            <Card className="mt-4">
              <h3 className="font-semibold">Welcome to Fixloop</h3>
              <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
                Authorize repository access, fetch issues, then let a model propose a fix you review before the pull
                request is opened.
              </p>
              <Link to="/repositories" className={`${buttonClass("primary")} mt-3`}>
                Get started
              </Link>
            </Card>
          </>
        ) : (
          <ul className="space-y-2">
            {recentlyChanged(allIssues).map((i) => (
              <li
                key={i._id}
                className="flex flex-wrap items-center gap-2 rounded-xl border border-slate-200 p-3 hover:border-violet-400 dark:border-slate-800"
              >
                <Link
                  to="/issues/$issueId/solve"
                  params={{ issueId: i._id }}
                  className="flex min-w-0 flex-1 flex-wrap items-center justify-between gap-2"
                >
                  <span className="min-w-0">
                    <span className="block truncate font-medium">
                      <InlineMarkdown>{i.title}</InlineMarkdown>
                    </span>
                    <span className="text-sm text-slate-600 dark:text-slate-400">
                      #{i.issueNumber} · {i.repoFullName}
                    </span>
                  </span>
                  <Badge tone={dashboardBadge(i).tone}>{dashboardBadge(i).label}</Badge>
                </Link>
                {i.openPullRequest && <OpenPullRequestLink pr={i.openPullRequest} />}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
