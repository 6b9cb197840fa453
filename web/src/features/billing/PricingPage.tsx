import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { toast } from "sonner";
import { PLAN_RANK, PLANS, type Plan } from "@fixloop/contract";
import { useAuth } from "../../auth/auth";
import { Button, Spinner } from "../../ui/ui";
import { FALLBACK_PLANS, plansQuery, subscriptionQuery } from "./billing.queries";
import { PaymentModal } from "./PaymentModal";
import { DowngradeDialog, formatDay } from "./DowngradeDialog";
import { PlanCard } from "./PlanCard";
import { PricingFaq } from "./PricingFaq";

/** Spec §2 Pricing and §5 plan-selection rules. */
export function PricingPage() {
  const navigate = useNavigate();
  const { user, loading } = useAuth();
  const plansQ = useQuery(plansQuery());
  const subQ = useQuery({ ...subscriptionQuery(), enabled: !!user });
  const [picked, setSelected] = useState<Plan | null>(null);
  const [paying, setPaying] = useState(false);
  const [downgradeFrom, setDowngradeFrom] = useState<Plan["id"] | null>(null);
  const plans = plansQ.data ?? (plansQ.isError ? FALLBACK_PLANS : undefined);
  const currentPlan = user ? (subQ.data?.subscription.plan ?? "FREE") : null;
  // Once a payment makes the picked plan current, there is nothing left to upgrade to.
  const selected = picked && picked.id !== currentPlan ? picked : null;

  function requireSignIn(): boolean {
    if (user || loading) return !loading;
    void navigate({ to: "/auth" });
    return false;
  }

  function select(plan: Plan) {
    if (!requireSignIn()) return;
    if (plan.id === "FREE") {
      if (currentPlan === "FREE" || !currentPlan) toast.info("You are already on the Free plan");
      else setDowngradeFrom(currentPlan);
      return;
    }
    if (plan.id === currentPlan) {
      toast.info(`You are already on the ${PLANS[plan.id].name} plan`);
      return;
    }
    if (currentPlan && PLAN_RANK[plan.id] < PLAN_RANK[currentPlan]) {
      // A payment for a lower plan would not apply while the higher one runs (the server refuses the order).
      const end = subQ.data?.subscription.currentPeriodEnd;
      toast.info(
        `You are on the ${PLANS[currentPlan].name} plan until ${end ? formatDay(end) : "the period ends"}; ${PLANS[plan.id].name} can be bought once it ends`,
      );
      return;
    }
    setSelected(plan);
  }

  function upgrade() {
    if (!requireSignIn()) return;
    if (!selected || selected.id === "FREE") {
      toast.error("Please select a paid plan to upgrade");
      return;
    }
    setPaying(true);
  }

  return (
    <main className="mx-auto max-w-6xl px-4 py-10">
      <header className="mb-8 text-center">
        <h1 className="text-3xl font-bold">Plans and pricing</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-400">
          Start free. Upgrade when you need premium models or more solutions.
        </p>
      </header>
      {!plans ? (
        <Spinner label="Loading plans..." />
      ) : (
        <div className="grid gap-4 md:grid-cols-3">
          {plans.map((p) => (
            <PlanCard
              key={p.id}
              plan={p}
              current={p.id === currentPlan}
              selected={selected?.id === p.id}
              onSelect={() => select(p)}
            />
          ))}
        </div>
      )}
      <div className="mt-8 flex justify-center">
        <Button onClick={upgrade} className="px-8">
          {selected ? `Upgrade to ${selected.name}` : "Upgrade"}
        </Button>
      </div>
      <PricingFaq />
      <PaymentModal plan={picked} open={paying} onClose={() => setPaying(false)} />
      <DowngradeDialog
        from={downgradeFrom}
        periodEnd={subQ.data?.subscription.currentPeriodEnd}
        onCancel={() => setDowngradeFrom(null)}
        onConfirm={() => {
          const end = subQ.data?.subscription.currentPeriodEnd;
          toast.success(
            `You stay on ${downgradeFrom ? PLANS[downgradeFrom].name : "your plan"} until ${end ? formatDay(end) : "the period ends"}, then move to Free`,
          );
          setSelected(null);
          setDowngradeFrom(null);
        }}
      />
    </main>
  );
}
