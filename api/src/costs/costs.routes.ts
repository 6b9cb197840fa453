import { Hono } from "hono";
import { z } from "zod";
import type { Db } from "@fixloop/db";
import { currentUsagePeriod, setSpendingCaps, spendingCaps, spendingSince } from "@fixloop/db";
import {
  DEFAULT_MODEL_ID,
  FALLBACK_PERIOD_DAYS,
  runEstimateRange,
  agentEstimateRange,
  CandidateCount,
  findModel,
  MAX_COST_CAP_USD,
  modelsConfigFromEnv,
  TYPICAL_OUTPUT_TOKENS,
} from "@fixloop/contract";
import type { AppEnv } from "../deps";
import type { ApiEnv } from "../env";
import { requireUser } from "../auth/auth.middleware";
import { validate } from "../http/validate";
import { solveErrors } from "../solve/solve.errors";

/** A cap in USD, or null to fall back to the operator's default. */
const Cap = z.number().nonnegative().max(MAX_COST_CAP_USD).nullable();
export const SpendingCapsBody = z.object({ runCapUsd: Cap, monthlyCapUsd: Cap }).strict();
export type SpendingCapsBody = z.infer<typeof SpendingCapsBody>;
const EstimateQuery = z.object({
  modelId: z.string().min(1).max(200).default(DEFAULT_MODEL_ID),
  /** Candidate patches the run would generate: each is one more answer request. */
  candidates: z.coerce.number().pipe(CandidateCount).default(1),
});

/**
 * The caller's caps (own, default, effective) and what this period has cost so far, from the
 * ledger: every model request sent (settled at its real cost, or at its worst case when that
 * never arrived), plus `reservedUsd`, the worst case of requests in flight, which counts against the caps too.
 */
async function capsView(db: Db, env: ApiEnv, userId: string) {
  const defaults = { runUsd: env.RUN_COST_CAP_USD, monthlyUsd: env.MONTHLY_COST_CAP_USD };
  const [caps, period] = await Promise.all([spendingCaps(db, userId, defaults), currentUsagePeriod(db, userId)]);
  // The period before this one (a plan bought mid-month starts a new period: its $0 must not hide
  // what the free period cost), over the same length a period has.
  const before = new Date(period.periodStart.getTime() - FALLBACK_PERIOD_DAYS * 86_400_000);
  const [spending, previous] = await Promise.all([
    spendingSince(db, userId, period.periodStart),
    spendingSince(db, userId, before, period.periodStart),
  ]);
  return {
    runCapUsd: caps.own.runUsd,
    monthlyCapUsd: caps.own.monthlyUsd,
    defaults: { runCapUsd: defaults.runUsd ?? null, monthlyCapUsd: defaults.monthlyUsd ?? null },
    effective: { runCapUsd: caps.effective.runUsd, monthlyCapUsd: caps.effective.monthlyUsd },
    periodStart: period.periodStart.toISOString(),
    spentThisPeriodUsd: spending.spentUsd,
    reservedUsd: spending.heldUsd,
    /** What model requests cost in the FALLBACK_PERIOD_DAYS before this period started. */
    previousPeriod: { start: before.toISOString(), spentUsd: previous.spentUsd + previous.heldUsd },
  };
}

export const costsRoutes = new Hono<AppEnv>()
  .get("/costs/caps", requireUser, async (c) => c.json(await capsView(c.var.deps.db, c.var.deps.env, c.var.user.id)))
  .put("/costs/caps", requireUser, validate("json", SpendingCapsBody), async (c) => {
    const body = c.req.valid("json");
    await setSpendingCaps(c.var.deps.db, c.var.user.id, { runUsd: body.runCapUsd, monthlyUsd: body.monthlyCapUsd });
    return c.json(await capsView(c.var.deps.db, c.var.deps.env, c.var.user.id));
  })
  /**
   * Before a run: the cost range of a small and a large prompt on this model, N answer requests
   * and (at the high end) the reproduction-test request; the exact prompt is known after localization.
   */
  .get("/costs/estimate", requireUser, validate("query", EstimateQuery), async (c) => {
    const { modelId, candidates } = c.req.valid("query");
    const model = findModel(modelsConfigFromEnv(c.var.deps.env), modelId);
    if (!model) throw solveErrors.unknownModel(modelId);
    const agent = agentEstimateRange(model, candidates, c.var.deps.env.AGENT_MAX_TURNS);
    return c.json({
      modelId: model.id,
      ...runEstimateRange(model, candidates),
      /** The same run in Investigate mode: a short loop at the low end, every turn at the high end. */
      investigate: { lowUsd: agent.lowUsd, highUsd: agent.highUsd },
      candidates,
      inputUsdPerMTok: model.inputUsdPerMTok,
      outputUsdPerMTok: model.outputUsdPerMTok,
      typicalOutputTokens: TYPICAL_OUTPUT_TOKENS,
    });
  });
