import { PLANS, type Plan } from "@fixloop/contract";

type PlanId = Plan["id"];
import { ConfirmDialog } from "../../ui/ConfirmDialog";

const PROVIDER_NAMES: Record<string, string> = { openai: "OpenAI", anthropic: "Anthropic", groq: "Groq" };

/** What moving from `from` to Free takes away, in the plan catalog's own terms. */
export function lossesToFree(from: PlanId): string[] {
  const paid = PLANS[from];
  const free = PLANS.FREE;
  const limit = (n: number) => (n < 0 ? "unlimited" : String(n));
  const losses = [`Solutions per month go from ${limit(paid.monthlyLimit)} to ${limit(free.monthlyLimit)}`];
  const models = paid.aiModels.filter((m) => !free.aiModels.includes(m)).map((m) => PROVIDER_NAMES[m] ?? m);
  if (models.length) losses.push(`${models.join(" and ")} models are no longer available`);
  if (paid.features.includes("API access")) losses.push("API access ends");
  return losses;
}

export const formatDay = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { year: "numeric", month: "long", day: "numeric" });

/** "Select Free" on a paid plan: says what is lost and when, before anything is taken as chosen. */
export function DowngradeDialog({
  from,
  periodEnd,
  onConfirm,
  onCancel,
}: {
  from: PlanId | null;
  periodEnd: string | undefined;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const name = from ? PLANS[from].name : "";
  const when = periodEnd ? formatDay(periodEnd) : "the end of the paid period";
  return (
    <ConfirmDialog
      open={from !== null && from !== "FREE"}
      title={`Switch from ${name} to Free?`}
      confirmLabel={`Switch to Free on ${when}`}
      cancelLabel={`Keep ${name}`}
      danger
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p>
        You keep {name} until <strong>{when}</strong>; nothing is refunded and nothing changes before then. After that
        date you are on Free:
      </p>
      <ul className="list-disc space-y-1 pl-5">{from && lossesToFree(from).map((l) => <li key={l}>{l}</li>)}</ul>
      <p className="text-slate-600 dark:text-slate-400">
        {name} is paid one period at a time and is never renewed without a new payment.
      </p>
    </ConfirmDialog>
  );
}
