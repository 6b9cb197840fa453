import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { USAGE_NOTIFY_RATIO } from "@fixloop/contract";
import { Card, Spinner, buttonClass } from "../../ui/ui";
import { SpendingCaps } from "./SpendingCaps";
import { FREE_USAGE, QUOTA_COUNTS, formatLimit, usageStatsQuery } from "./billing.queries";

const date = (iso: string) => (iso ? new Date(iso).toLocaleDateString() : "—");

/** Profile settings → Usage: this period's solutions against the plan's limit. */
export function UsageTab() {
  const q = useQuery(usageStatsQuery());
  if (q.isPending) return <Spinner label="Loading usage..." />;
  const s = q.data ?? FREE_USAGE;
  const unlimited = s.monthlyLimit < 0;
  const ratio = unlimited || s.monthlyLimit === 0 ? 0 : Math.min(1, s.monthlySolutions / s.monthlyLimit);
  const bar = ratio >= 1 ? "bg-red-600" : ratio >= USAGE_NOTIFY_RATIO ? "bg-orange-500" : "bg-violet-600";
  return (
    <div className="space-y-4">
      <Card>
        <h2 className="font-semibold">This month</h2>
        <p className="mt-2 text-3xl font-bold" data-testid="monthly-usage">
          {s.monthlySolutions}
          <span className="text-base font-normal text-slate-600 dark:text-slate-400">
            {" "}
            / {formatLimit(s.monthlyLimit)} solutions
          </span>
        </p>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400" data-testid="quota-counts">
          {QUOTA_COUNTS}
        </p>
        {!unlimited && (
          <div
            className="mt-3 h-2 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
            role="progressbar"
            aria-label="Monthly usage"
            aria-valuemin={0}
            aria-valuemax={s.monthlyLimit}
            aria-valuenow={s.monthlySolutions}
          >
            <div className={`h-full ${bar}`} style={{ width: `${Math.round(ratio * 100)}%` }} />
          </div>
        )}
        {!unlimited && ratio >= USAGE_NOTIFY_RATIO && (
          <p className="mt-3 text-sm text-orange-700 dark:text-orange-300">
            {ratio >= 1
              ? "You have used all the solutions of this period."
              : "You have used over 80% of this period's solutions."}{" "}
            <Link to="/pricing" className="underline">
              Upgrade
            </Link>
          </p>
        )}
        {q.isError && (
          <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">
            Usage could not be loaded; showing defaults.
          </p>
        )}
      </Card>
      <div className="grid gap-4 sm:grid-cols-2">
        <Card>
          <p className="text-sm text-slate-600 dark:text-slate-400">Total solutions</p>
          <p className="text-2xl font-semibold">{s.totalSolutions}</p>
        </Card>
        <Card>
          <p className="text-sm text-slate-600 dark:text-slate-400">Period started</p>
          <p className="text-2xl font-semibold">{date(s.lastResetDate)}</p>
        </Card>
      </div>
      <SpendingCaps />
      <Link to="/pricing" className={buttonClass("secondary")}>
        Compare plans
      </Link>
    </div>
  );
}
