import { Check } from "lucide-react";
import type { Plan } from "@fixloop/contract";
import { Badge, Button } from "../../ui/ui";
import { formatPrice } from "./billing.queries";

export function PlanCard({
  plan,
  current,
  selected,
  onSelect,
}: {
  plan: Plan;
  current: boolean;
  selected: boolean;
  onSelect: () => void;
}) {
  const ring = selected ? "border-violet-600 ring-2 ring-violet-600" : "border-slate-200 dark:border-slate-800";
  return (
    <section
      aria-label={`${plan.name} plan`}
      className={`flex flex-col rounded-xl border bg-white p-5 dark:bg-slate-900 ${ring}`}
    >
      <div className="flex items-center justify-between">
        <h2 className="text-lg font-semibold">{plan.name}</h2>
        {current && <Badge tone="purple">Current plan</Badge>}
      </div>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{plan.description}</p>
      <p className="mt-4">
        <span className="text-3xl font-bold">{formatPrice(plan.price, plan.currency)}</span>
        <span className="text-sm text-slate-600 dark:text-slate-400"> / {plan.interval}</span>
      </p>
      <ul className="mt-4 flex-1 space-y-2 text-sm">
        {plan.features.map((f) => (
          <li key={f} className="flex gap-2">
            <Check className="mt-0.5 size-4 shrink-0 text-violet-700 dark:text-violet-300" aria-hidden />
            {f}
          </li>
        ))}
      </ul>
      {current ? (
        // aria-disabled keeps the click, which explains "You are already on the … plan".
        <Button
          className="mt-5 w-full cursor-not-allowed opacity-60"
          variant="secondary"
          aria-disabled="true"
          onClick={onSelect}
        >
          Your current plan
        </Button>
      ) : (
        <Button
          className="mt-5 w-full"
          variant={selected ? "primary" : "secondary"}
          aria-pressed={selected}
          onClick={onSelect}
        >
          {selected ? "Selected" : `Select ${plan.name}`}
        </Button>
      )}
    </section>
  );
}
