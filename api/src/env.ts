import { z } from "zod";
import { GithubAppEnv, loadEnv } from "@fixloop/runtime";
import { ProviderEnv, CostCapSetting, PricesSetting, ActiveRunCapsSetting } from "@fixloop/contract";

const bool = z.enum(["true", "false", "1", "0", ""]).transform((v) => v === "true" || v === "1");
const list = z
  .string()
  .default("")
  .transform((s) =>
    s
      .split(",")
      .map((x) => x.trim())
      .filter(Boolean),
  );

/** Every setting of the API process. Documented in README's configuration table. */
export const ApiEnv = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  /** Origin the browser uses; OAuth redirect URIs and CSRF checks derive from it. */
  PUBLIC_URL: z.string().url().optional(),
  DATABASE_URL: z.string().min(1),
  REDIS_URL: z.string().min(1),
  QUEUE_PREFIX: z.string().default("fixloop"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** `keyId:base64(32 bytes)` pairs, comma separated; the first encrypts, all decrypt (rotation). */
  TOKEN_ENCRYPTION_KEYS: z.string().min(1),
  GITHUB_CLIENT_ID: z.string().default(""),
  GITHUB_CLIENT_SECRET: z.string().default(""),
  GITHUB_WEB_URL: z.string().url().default("https://github.com"),
  GITHUB_API_URL: z.string().url().default("https://api.github.com"),
  ADMIN_GITHUB_LOGINS: list,
  /** Secret set on the GitHub webhook; verifies X-Hub-Signature-256. Empty refuses every delivery (polling only). */
  GITHUB_WEBHOOK_SECRET: z.string().default(""),
  /** The GitHub App (id, slug, private key); empty: repository access by OAuth grant. */
  ...GithubAppEnv.shape,
  /** Model providers (same keys as the worker's). */
  ...ProviderEnv.shape,
  /** Prices of those models, `model=input/output` in USD per million tokens, comma separated; unpriced models cost 0. */
  OPENAI_COMPATIBLE_PRICES: PricesSetting,
  /** Default spending caps in USD (per run, per monthly period) for users who set none; unset means no cap. */
  RUN_COST_CAP_USD: CostCapSetting,
  MONTHLY_COST_CAP_USD: CostCapSetting,
  /** When set, GET /metrics requires `Authorization: Bearer <token>`. */
  METRICS_TOKEN: z.string().optional(),
  /** Stand-ins in use (set by the launcher); shown as a badge in the UI. */
  SANDBOX_SERVICES: list,
  /** Issue URLs of the GitHub stand-in worth importing (set by the launcher); offered as examples on /contribute. */
  SANDBOX_EXAMPLE_ISSUE_URLS: list,
  WEB_DIST_DIR: z.string().optional(),
  /** Seconds an endpoint waits for a job before answering 202 with the job id. */
  JOB_WAIT_SECONDS: z.coerce.number().min(0).default(30),
  SESSION_TTL_DAYS: z.coerce.number().positive().default(30),
  /** Live run-event streams one user may hold open at once, across every API process; more answer 429. */
  SSE_MAX_STREAMS_PER_USER: z.coerce.number().int().positive().default(20),
  /** Seconds a live stream's slot outlives the API process holding it (renewed while the stream is open). */
  SSE_STREAM_LEASE_SECONDS: z.coerce.number().int().min(3).max(3600).default(30),
  /** Solve runs one user may have running at once, per plan (a queued run's first step says why it waits). */
  MAX_ACTIVE_RUNS_PER_USER: ActiveRunCapsSetting,
  COOKIE_SECURE: bool.optional(),
  /** Abuse limits in Redis per IP and per credential; `name=limit/seconds,...` overrides the defaults. */
  RATE_LIMITS_ENABLED: bool.default(true),
  /** Operator default of "present unverified solutions" (users may change theirs in Settings); the worker reads it too. */
  PRESENT_UNVERIFIED: z
    .enum(["true", "false"])
    .default("true")
    .transform((v) => v === "true"),
  RATE_LIMITS: z.string().default(""),
  /** Most model turns of one Investigate agent (the worker reads it too); the estimate's high end uses it. */
  AGENT_MAX_TURNS: z.coerce.number().int().min(2).max(200).default(30),
  /** Largest JSON body accepted, in bytes (file edits have their own, larger limit). */
  MAX_JSON_BODY_BYTES: z.coerce.number().int().positive().default(1_000_000),
  MAX_EDIT_BODY_BYTES: z.coerce.number().int().positive().default(8_000_000),
  /** The pull request's size limits (read by the workers too): a hand edit past one is refused with the job's reason. */
  PR_MAX_FILES: z.coerce.number().int().min(1).default(50),
  PR_MAX_CHANGED_LINES: z.coerce.number().int().min(1).default(5000),
  PR_MAX_BYTES: z.coerce.number().int().min(1).default(1_000_000),
  /** Razorpay API key id (rzp_test_… or rzp_live_…); also handed to the browser checkout. Empty disables payments. */
  RAZORPAY_KEY_ID: z.string().default(""),
  /** Razorpay key secret: authenticates API calls and signs checkout results. */
  RAZORPAY_KEY_SECRET: z.string().default(""),
  /** Secret set on the Razorpay webhook; verifies X-Razorpay-Signature. */
  RAZORPAY_WEBHOOK_SECRET: z.string().default(""),
  /** Base URL of the Razorpay API (the payment stand-in's URL in sandbox mode). */
  RAZORPAY_API_URL: z.string().url().default("https://api.razorpay.com"),
  /** Checkout script the browser loads on demand. */
  RAZORPAY_CHECKOUT_URL: z.string().url().default("https://checkout.razorpay.com/v1/checkout.js"),
});
export type ApiEnv = z.infer<typeof ApiEnv>;

export const loadApiEnv = (source: Record<string, string | undefined> = process.env): ApiEnv =>
  loadEnv(ApiEnv, source, "API");
