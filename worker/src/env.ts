import { z } from "zod";
import { CostCapSetting, PricesSetting } from "./contract";

/** Every setting of a worker process. Documented in README's configuration table. */
export const WorkerEnv = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z.string().min(1),
  REDIS_URL: z.string().min(1),
  QUEUE_PREFIX: z.string().default("fixloop"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  TOKEN_ENCRYPTION_KEYS: z.string().min(1),
  GITHUB_API_URL: z.string().url().default("https://api.github.com"),
  /** Jobs each worker process runs at once, per queue. */
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /** Queues this process serves (comma separated); empty = all. */
  WORKER_QUEUES: z.string().default(""),
  GROQ_API_KEY: z.string().default(""),
  GROQ_BASE_URL: z.string().optional(),
  OPENAI_API_KEY: z.string().default(""),
  OPENAI_BASE_URL: z.string().optional(),
  ANTHROPIC_API_KEY: z.string().default(""),
  ANTHROPIC_BASE_URL: z.string().optional(),
  /** Seconds one model request may take before it counts as a transient failure and is retried. */
  MODEL_TIMEOUT_SECONDS: z.coerce.number().positive().default(300),
  /** Self-hosted OpenAI-compatible endpoint (Ollama, vLLM, LM Studio). */
  OPENAI_COMPATIBLE_BASE_URL: z.string().default(""),
  OPENAI_COMPATIBLE_API_KEY: z.string().default(""),
  /** Model ids served by that endpoint, comma separated. */
  OPENAI_COMPATIBLE_MODELS: z.string().default(""),
  /** Prices of those models, `model=input/output` in USD per million tokens, comma separated; unpriced models cost 0. */
  OPENAI_COMPATIBLE_PRICES: PricesSetting,
  /** Default spending caps in USD (per run, per monthly period) for users who set none; unset means no cap. */
  RUN_COST_CAP_USD: CostCapSetting,
  MONTHLY_COST_CAP_USD: CostCapSetting,
  /** Most files one pull request may change; larger solutions are refused before any push. */
  PR_MAX_FILES: z.coerce.number().int().min(1).default(50),
  /** Most changed lines (added + removed) one pull request may carry. */
  PR_MAX_CHANGED_LINES: z.coerce.number().int().min(1).default(5000),
  /** Seconds between sweeps that re-enqueue runs Postgres says are unfinished. */
  SWEEP_INTERVAL_SECONDS: z.coerce.number().min(1).default(30),
});
export type WorkerEnv = z.infer<typeof WorkerEnv>;

export function loadWorkerEnv(source: Record<string, string | undefined> = process.env): WorkerEnv {
  const parsed = WorkerEnv.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid worker configuration:\n${lines.join("\n")}`);
  }
  return parsed.data;
}
