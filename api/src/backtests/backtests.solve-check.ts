import {
  DEFAULT_MODEL_ID,
  PLANS,
  estimateRange,
  findModel,
  modelsConfigFromEnv,
  planAllowsProvider,
} from "@fixloop/contract";
import { currentUsagePeriod, spendingCaps, spendingSince, usedInPeriod, users } from "@fixloop/db";
import type { AppDeps } from "../deps";
import { AppError } from "../http/errors";
import { solveErrors } from "../solve/solve.errors";

const usd = (n: number) => `$${n.toFixed(4)}`;

/**
 * A backtest that solves is allowed only when a solve could start now: the model is known and
 * the plan allows it, the plan's quota has a run left, and the smallest typical answer requests
 * (one per candidate the user's solves write) fit under the per-run and the monthly cap. Answers
 * the model the solves use; refuses before anything is written.
 */
export async function assertCanSolve(deps: AppDeps, userId: string, modelId: string | undefined): Promise<string> {
  const { db, env } = deps;
  const id = modelId ?? DEFAULT_MODEL_ID;
  const model = findModel(modelsConfigFromEnv(env), id);
  if (!model) throw solveErrors.unknownModel(id);
  const period = await currentUsagePeriod(db, userId);
  if (!planAllowsProvider(period.plan, model.provider)) throw solveErrors.premiumRequired();
  const limit = PLANS[period.plan].monthlyLimit;
  if (limit >= 0 && (await usedInPeriod(db, userId, period.periodStart)) >= limit)
    throw new AppError(
      429,
      "backtest.quota_exhausted",
      "Your plan's runs for this period are used up, and each solve of a backtest is a run: backtest without solves, or upgrade",
    );
  const defaults = { runUsd: env.RUN_COST_CAP_USD, monthlyUsd: env.MONTHLY_COST_CAP_USD };
  const [caps, spending, candidates] = await Promise.all([
    spendingCaps(db, userId, defaults),
    spendingSince(db, userId, period.periodStart),
    users.defaultCandidates(db, userId),
  ]);
  // Each solve writes the user's default number of candidates: each is one answer request.
  const least = estimateRange(model).lowUsd * candidates;
  const { runUsd, monthlyUsd } = caps.effective;
  if (runUsd !== null && least > runUsd)
    throw new AppError(
      409,
      "backtest.run_cap_too_low",
      `One solve on ${model.id} costs at least about ${usd(least)}, over your per-run cap of ${usd(runUsd)}. Raise it in Profile → Usage, or backtest without solves`,
    );
  const month = spending.spentUsd + spending.heldUsd + least;
  if (monthlyUsd !== null && month > monthlyUsd)
    throw new AppError(
      409,
      "backtest.monthly_cap_reached",
      `A solve could bring this month's spending to ${usd(month)}, over your monthly cap of ${usd(monthlyUsd)}. Raise it in Profile → Usage, or backtest without solves`,
    );
  return model.id;
}
