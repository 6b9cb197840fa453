import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { PLANS, isPlanId } from "@fixloop/contract";
import { Badge, Card, Spinner, buttonClass, type Tone } from "../../ui/ui";
import { formatLimit, formatPrice, subscriptionQuery } from "./billing.queries";

const STATUS_TONE: Record<string, Tone> = { paid: "green", created: "gray", failed: "red", refunded: "yellow" };
const day = (iso: string) => new Date(iso).toLocaleDateString();

/** Profile settings → Billing: current plan, its period, and recent payments. */
export function BillingTab() {
  const q = useQuery(subscriptionQuery());
  if (q.isPending) return <Spinner label="Loading billing..." />;
  const sub = q.data?.subscription;
  const planId = sub && isPlanId(sub.plan) ? sub.plan : "FREE";
  const plan = PLANS[planId];
  const payments = q.data?.recentPayments ?? [];
  return (
    <div className="space-y-4">
      <Card>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div>
            <p className="text-sm text-slate-600 dark:text-slate-400">Current plan</p>
            <p className="text-2xl font-semibold" data-testid="current-plan">
              {plan.name}
            </p>
            <p className="text-sm text-slate-700 dark:text-slate-300">
              {formatPrice(plan.price, plan.currency)} / {plan.interval} · {formatLimit(plan.monthlyLimit)} solutions a
              month
            </p>
            {sub && (
              <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
                Status {sub.status} · period {day(sub.currentPeriodStart)} – {day(sub.currentPeriodEnd)}
              </p>
            )}
          </div>
          {planId !== "ENTERPRISE" && (
            <Link to="/pricing" className={buttonClass("primary")}>
              Upgrade
            </Link>
          )}
        </div>
        {q.isError && (
          <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">
            Billing could not be loaded; showing Free plan defaults.
          </p>
        )}
      </Card>
      <Card>
        <h2 className="mb-3 font-semibold">Recent payments</h2>
        {payments.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">No payments yet.</p>
        ) : (
          <table className="w-full text-left text-sm">
            <thead className="text-slate-600 dark:text-slate-400">
              <tr>
                <th className="py-1 font-medium">Date</th>
                <th className="py-1 font-medium">Plan</th>
                <th className="py-1 font-medium">Amount</th>
                <th className="py-1 font-medium">Status</th>
              </tr>
            </thead>
            <tbody>
              {payments.map((p) => (
                <tr key={p.id} className="border-t border-slate-200 dark:border-slate-800">
                  <td className="py-2">{day(p.createdAt)}</td>
                  <td className="py-2">{isPlanId(p.plan) ? PLANS[p.plan].name : p.plan}</td>
                  <td className="py-2">{formatPrice(p.amount / 100, p.currency)}</td>
                  <td className="py-2">
                    <Badge tone={STATUS_TONE[p.status] ?? "gray"}>{p.status}</Badge>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
    </div>
  );
}
