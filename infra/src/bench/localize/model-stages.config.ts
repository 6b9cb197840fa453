import {
  DEFAULT_MODEL_ID,
  findModel,
  type ModelInfo,
  type ModelsConfig,
  modelsConfigFromEnv,
  parsePrices,
} from "@fixloop/contract";
import { embeddingsSettings, type EmbeddingsSettings, WorkerEnv } from "@fixloop/worker";

/** Step 3's embedding rerank: the operator's endpoint, and how many of the ranking's best files it reorders. */
export interface EmbeddingStage {
  kind: "embedding";
  settings: EmbeddingsSettings;
  pool: number;
  /** Whether the product knows the model's price (OPENAI_COMPATIBLE_PRICES); unpriced, it records 0 USD. */
  priced: boolean;
  label: string;
}

/** Step 3's model rerank: one tool call showing a model the ranking's best files. */
export interface ModelRerankStage {
  kind: "model";
  models: ModelsConfig;
  model: ModelInfo;
  priced: boolean;
  label: string;
}

export type ModelStage = EmbeddingStage | ModelRerankStage;

/** The stages configured in the environment, and one line for each stage that will not run, saying why. */
export interface ConfiguredStages {
  stages: ModelStage[];
  notes: string[];
}

const StageEnv = WorkerEnv.pick({
  EMBEDDINGS_BASE_URL: true,
  EMBEDDINGS_MODEL: true,
  EMBEDDINGS_API_KEY: true,
  EMBEDDINGS_RERANK_TOP: true,
  MODEL_TIMEOUT_SECONDS: true,
  MODEL_RERANK: true,
  OPENAI_COMPATIBLE_PRICES: true,
});

/** An endpoint as a reader may see it: without credentials, query or fragment. */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/$/, "")}`;
  } catch {
    return "(unparsable URL)";
  }
}

function rerankEndpoint(models: ModelsConfig, model: ModelInfo): string {
  const base =
    model.provider === "openai-compatible"
      ? models.openaiCompatible?.baseURL
      : model.provider === "groq"
        ? models.groq?.baseURL
        : model.provider === "openai"
          ? models.openai?.baseURL
          : models.anthropic?.baseURL;
  return base ? shownUrl(base) : `${model.provider}'s default endpoint`;
}

/**
 * Reads the stages as the worker would (WorkerEnv's own fields and defaults). The model rerank asks
 * BENCH_RERANK_MODEL, else the model a solve uses when none is chosen; a solve asks its run's model.
 */
export function configuredStages(env: Record<string, string | undefined>): ConfiguredStages {
  const parsed = StageEnv.safeParse(env);
  if (!parsed.success)
    return {
      stages: [],
      notes: [`localize: model stages skipped: ${parsed.error.issues[0]?.message ?? "bad settings"}`],
    };
  const e = parsed.data;
  const stages: ModelStage[] = [];
  const notes: string[] = [];
  const settings = embeddingsSettings(e);
  if (settings)
    stages.push({
      kind: "embedding",
      settings,
      pool: e.EMBEDDINGS_RERANK_TOP,
      priced: parsePrices(e.OPENAI_COMPATIBLE_PRICES)[settings.model] !== undefined,
      label: `embedding rerank (${settings.model} at ${shownUrl(settings.baseURL)}, top ${e.EMBEDDINGS_RERANK_TOP})`,
    });
  else notes.push("embedding rerank: EMBEDDINGS_BASE_URL/EMBEDDINGS_MODEL unset");
  if (e.MODEL_RERANK === "on") {
    const models = modelsConfigFromEnv(env);
    const id = env.BENCH_RERANK_MODEL?.trim() || DEFAULT_MODEL_ID;
    const model = findModel(models, id);
    if (model)
      stages.push({
        kind: "model",
        models,
        model,
        priced: model.provider !== "openai-compatible" || models.openaiCompatible?.prices?.[id] !== undefined,
        label: `model rerank (${model.id} at ${rerankEndpoint(models, model)})`,
      });
    else notes.push(`model rerank: MODEL_RERANK=on, but no configured provider serves ${id} (BENCH_RERANK_MODEL)`);
  } else notes.push("model rerank: MODEL_RERANK unset");
  if (stages.length === 0)
    return {
      stages,
      notes: [`localize: model stages skipped (${notes.join("; ")}): every localize figure is the no-model ranker's`],
    };
  return { stages, notes: notes.map((n) => `localize: skipped ${n}`) };
}
