import { domain, findModel, type ModelInfo, modelsConfigFromEnv } from "@fixloop/contract";
import { type Conn, currentUsagePeriod } from "@fixloop/db";
import type { AppDeps } from "../deps";
import { solveErrors } from "./solve.errors";

async function assertPlanAllows(db: Conn, userId: string, model: ModelInfo): Promise<void> {
  const { plan } = await currentUsagePeriod(db, userId);
  if (!domain.planAllowsProvider(plan, model.provider)) throw solveErrors.premiumRequired();
}

/** The catalog's model `modelId` for a new solve: 400 when the catalog lacks it, 403 when the plan does not allow it. */
export async function allowedModel(deps: Pick<AppDeps, "env">, db: Conn, userId: string, modelId: string) {
  const model = findModel(modelsConfigFromEnv(deps.env), modelId);
  if (!model) throw solveErrors.unknownModel(modelId);
  await assertPlanAllows(db, userId, model);
  return model;
}

/**
 * A run that reuses an earlier run's model (a refinement, a resumed run) is checked against the
 * plan as it is now, as a new solve is: a plan that lapsed takes its models with it (403). A model
 * no longer configured is left to the worker, which cannot call it (the run fails, spending nothing).
 */
export async function assertModelStillAllowed(
  deps: Pick<AppDeps, "env">,
  db: Conn,
  userId: string,
  modelId: string,
): Promise<void> {
  const model = findModel(modelsConfigFromEnv(deps.env), modelId);
  if (model) await assertPlanAllows(db, userId, model);
}
