import { useQuery } from "@tanstack/react-query";
import { costEstimateQuery, formatUsd, spendingCapsQuery } from "../../api/costs.queries";
import type { Run } from "../../api/runs.queries";

/** Before Generate: the cost range on this model (the exact prompt is known only after the files are found) and the caps that apply. */
export function CostEstimate({
  modelId,
  candidates = 1,
  mode = "single",
}: {
  modelId: string;
  candidates?: number;
  mode?: "single" | "investigate";
}) {
  const estimate = useQuery(costEstimateQuery(modelId, candidates));
  const caps = useQuery(spendingCapsQuery());
  if (!estimate.data) return null;
  // The range of the chosen mode first, the other beside it.
  const chosen = mode === "investigate" ? estimate.data.investigate : estimate.data;
  const other = mode === "investigate" ? estimate.data : estimate.data.investigate;
  const { lowUsd, highUsd } = chosen;
  const run = caps.data?.effective.runCapUsd ?? null;
  const monthly = caps.data?.effective.monthlyCapUsd ?? null;
  return (
    <p className="mt-3 text-sm text-slate-700 dark:text-slate-300" data-testid="cost-estimate">
      {highUsd === 0
        ? "Estimated cost: free on this model."
        : `Estimated cost: ${formatUsd(lowUsd)} – ${formatUsd(highUsd)}${candidates > 1 ? ` for ${candidates} candidates` : ""}, exact once the relevant files are found.`}
      {run !== null && ` Per-run cap: ${formatUsd(run)}.`}
      {monthly !== null &&
        caps.data &&
        ` Monthly cap: ${formatUsd(monthly)} (${formatUsd(caps.data.spentThisPeriodUsd)} spent).`}
      {other.highUsd > 0 &&
        ` ${mode === "investigate" ? "Single pass" : "Investigate"}: ${formatUsd(other.lowUsd)} – ${formatUsd(other.highUsd)}.`}
    </p>
  );
}

/** After a run: what it cost. */
export function RunCostLine({ run }: { run: Run }) {
  return (
    <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="run-cost-total">
      This run cost {formatUsd(run.costUsd)} ({run.tokensIn} tokens in, {run.tokensOut} out).
    </p>
  );
}
