import type { Db, SolveRun } from "@fixloop/db";
import { currentUsagePeriod, runSpent, spendingCaps, spentSince } from "@fixloop/db";
import type { WorkerEnv } from "../env";

/** What a run may still spend before its next model request. */
export interface Budget {
  runCapUsd: number | null;
  monthlyCapUsd: number | null;
  /** What this run's model requests cost so far and, for the month, all of the user's (failed runs included). */
  runSpentUsd: number;
  monthSpentUsd: number;
}

export class CostCapExceeded extends Error {
  constructor(
    readonly code: "cost.run_cap_exceeded" | "cost.monthly_cap_exceeded",
    message: string,
  ) {
    super(message);
    this.name = "CostCapExceeded";
  }
}

export async function loadBudget(
  db: Db,
  env: Pick<WorkerEnv, "RUN_COST_CAP_USD" | "MONTHLY_COST_CAP_USD">,
  run: Pick<SolveRun, "id" | "user_id">,
): Promise<Budget> {
  const [caps, period, spent] = await Promise.all([
    spendingCaps(db, run.user_id, { runUsd: env.RUN_COST_CAP_USD, monthlyUsd: env.MONTHLY_COST_CAP_USD }),
    currentUsagePeriod(db, run.user_id),
    runSpent(db, run.id),
  ]);
  return {
    runCapUsd: caps.effective.runUsd,
    monthlyCapUsd: caps.effective.monthlyUsd,
    runSpentUsd: spent,
    monthSpentUsd: await spentSince(db, run.user_id, period.periodStart),
  };
}

const usd = (n: number) => `$${n.toFixed(4)}`;
const RAISE = "Raise the cap in Profile → Usage, then resume the run.";

/** Throws when a request estimated at `estimateUsd` (after `extraUsd` spent in this step) would pass a cap. */
export function checkBudget(b: Budget, estimateUsd: number, extraUsd = 0): void {
  const run = b.runSpentUsd + extraUsd + estimateUsd;
  if (b.runCapUsd !== null && run > b.runCapUsd) {
    throw new CostCapExceeded(
      "cost.run_cap_exceeded",
      `This run would cost about ${usd(run)}, over your per-run cap of ${usd(b.runCapUsd)}. ${RAISE}`,
    );
  }
  const month = b.monthSpentUsd + extraUsd + estimateUsd;
  if (b.monthlyCapUsd !== null && month > b.monthlyCapUsd) {
    throw new CostCapExceeded(
      "cost.monthly_cap_exceeded",
      `This run would bring this month's spending to about ${usd(month)}, over your monthly cap of ${usd(b.monthlyCapUsd)}. ${RAISE}`,
    );
  }
}
