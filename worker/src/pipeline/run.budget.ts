import type { Db, RunClaim, SolveRun } from "@fixloop/db";
import type { StepId } from "@fixloop/contract";
import { currentUsagePeriod, releaseSpend, reserveSpend, settleSpend, type ReserveOutcome } from "@fixloop/db";
import type { WorkerEnv } from "../env";
import type { RequestMeter } from "../models/meter";

export class CostCapExceeded extends Error {
  constructor(
    readonly code: "cost.run_cap_exceeded" | "cost.monthly_cap_exceeded",
    message: string,
  ) {
    super(message);
    this.name = "CostCapExceeded";
  }
}

const usd = (n: number) => `$${n.toFixed(4)}`;
const RAISE = "Raise the cap in Profile → Usage, then resume the run.";

/** The cap a refused reservation would have passed, as the error the run stops with. */
export function capError(o: ReserveOutcome, worstUsd: number): CostCapExceeded {
  const run = o.runSpentUsd + worstUsd;
  if (o.runCapUsd !== null && run > o.runCapUsd) {
    return new CostCapExceeded(
      "cost.run_cap_exceeded",
      `This run could cost up to ${usd(run)} with its next model request, over your per-run cap of ${usd(o.runCapUsd)}. ${RAISE}`,
    );
  }
  const month = o.monthSpentUsd + worstUsd;
  return new CostCapExceeded(
    "cost.monthly_cap_exceeded",
    `The next model request could bring this month's spending to ${usd(month)}, over your monthly cap of ${usd(o.monthlyCapUsd ?? 0)}. ${RAISE}`,
  );
}

/**
 * The ledger as a step's model requests see it: each request's worst case is reserved against the
 * run cap and the monthly cap before it is sent (CostCapExceeded when it does not fit, and then it
 * is not sent), and settled to its real cost when its answer or error arrives.
 */
export function ledgerMeter(
  db: Db,
  env: Pick<WorkerEnv, "RUN_COST_CAP_USD" | "MONTHLY_COST_CAP_USD">,
  run: Pick<SolveRun, "id" | "user_id">,
  step: StepId,
  /** The worker's claim on the run: a worker that lost the run reserves (so sends) nothing. */
  claim?: RunClaim,
): RequestMeter {
  const defaults = {
    ...(env.RUN_COST_CAP_USD !== undefined ? { runUsd: env.RUN_COST_CAP_USD } : {}),
    ...(env.MONTHLY_COST_CAP_USD !== undefined ? { monthlyUsd: env.MONTHLY_COST_CAP_USD } : {}),
  };
  return {
    async reserve({ purpose, modelId, attempt, worst }) {
      const period = await currentUsagePeriod(db, run.user_id);
      const o = await reserveSpend(db, {
        runId: run.id,
        userId: run.user_id,
        step,
        purpose,
        modelId,
        attempt,
        worstUsd: worst.usd,
        periodStart: period.periodStart,
        defaults,
        ...(claim ? { claim } : {}),
      });
      const id = o.id;
      if (id === null) throw capError(o, worst.usd);
      return {
        settle: (s) =>
          settleSpend(db, id, {
            tokensIn: s.tokensIn,
            tokensOut: s.tokensOut,
            costUsd: s.usd,
            outcome: s.outcome,
            confirmed: s.confirmed,
          }),
        release: (outcome) => releaseSpend(db, id, outcome),
      };
    },
  };
}
