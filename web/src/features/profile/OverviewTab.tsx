import { useQuery } from "@tanstack/react-query";
import { PLANS } from "@fixloop/contract";
import { issuesQuery } from "../../api/issues.queries";
import { pullRequestsQuery } from "../../api/prs.queries";
import type { User } from "../../api/types";
import { Card } from "../../ui/ui";
import { Avatar } from "../../ui/Avatar";
import { subscriptionQuery, usageStatsQuery } from "../billing";
import { formatLimit } from "../billing/billing.queries";
import { successRate } from "../dashboard/success-rate";

export function OverviewTab({ user }: { user: User }) {
  const sub = useQuery(subscriptionQuery());
  const usage = useQuery(usageStatsQuery());
  const issues = useQuery(issuesQuery());
  const prs = useQuery(pullRequestsQuery());
  const plan = sub.data?.subscription.plan ?? "FREE";
  const rate = issues.data && prs.data ? successRate(issues.data.counts?.completed ?? 0, prs.data.pullRequests) : null;
  const item = "rounded-lg border border-slate-200 p-3 dark:border-slate-800";
  return (
    <Card>
      <div className="flex items-center gap-4">
        <Avatar url={user.avatarUrl} name={user.username} className="size-16" />
        <div className="min-w-0">
          <h2 className="text-xl font-semibold">{user.username}</h2>
          <p className="truncate text-sm text-slate-600 dark:text-slate-400">{user.email ?? "No public email"}</p>
        </div>
      </div>
      <dl className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <div className={item}>
          <dt className="text-sm text-slate-600 dark:text-slate-400">Member Since</dt>
          <dd className="font-semibold">
            {new Date(user.createdAt).toLocaleDateString(undefined, { year: "numeric", month: "long", day: "numeric" })}
          </dd>
        </div>
        <div className={item}>
          <dt className="text-sm text-slate-600 dark:text-slate-400">Plan</dt>
          <dd className="font-semibold">
            {PLANS[plan].name} · {formatLimit(PLANS[plan].monthlyLimit)} solutions / month
          </dd>
        </div>
        <div className={item}>
          <dt className="text-sm text-slate-600 dark:text-slate-400">Solutions generated</dt>
          <dd className="font-semibold">
            {usage.data ? `${usage.data.totalSolutions} total · ${usage.data.monthlySolutions} this month` : "—"}
          </dd>
        </div>
        <div className={item}>
          <dt className="text-sm text-slate-600 dark:text-slate-400">Success Rate</dt>
          <dd className="font-semibold">{rate?.percent == null ? "—" : `${rate.percent}%`}</dd>
          {rate && (
            <dd className="text-xs text-slate-600 dark:text-slate-400">
              {rate.completed === 0
                ? "No completed solutions yet"
                : `${rate.landed} open or merged PRs of ${rate.completed} completed solutions`}
            </dd>
          )}
        </div>
      </dl>
    </Card>
  );
}
