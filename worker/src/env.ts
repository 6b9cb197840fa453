import { z } from "zod";
import { GithubAppEnv, loadEnv } from "@fixloop/runtime";
import { ProviderEnv, CostCapSetting, PricesSetting, ActiveRunCapsSetting } from "@fixloop/contract";
import { DEFAULT_ALLOWED_HOSTS, parseAllowedHosts } from "./tests-run/sandbox.egress.policy";

/** Every setting of a worker process. Documented in README's configuration table. */
export const WorkerEnv = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z.string().min(1),
  REDIS_URL: z.string().min(1),
  QUEUE_PREFIX: z.string().default("fixloop"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  TOKEN_ENCRYPTION_KEYS: z.string().min(1),
  GITHUB_API_URL: z.string().url().default("https://api.github.com"),
  /** The GitHub App whose installation tokens write (as the API's). */
  ...GithubAppEnv.shape,
  /** Origin the browser uses (as the API's PUBLIC_URL): the label trigger's issue comment links the run there. */
  PUBLIC_URL: z.string().url().default("http://localhost:3000"),
  /** Jobs each worker process runs at once, per queue. */
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /** Queues this process serves (comma separated); empty = all. */
  WORKER_QUEUES: z.string().default(""),
  /** Seconds a stopping worker (SIGTERM) lets its running jobs finish; then it hands them back to the queue and exits. */
  WORKER_DRAIN_SECONDS: z.coerce.number().int().min(1).max(86_400).default(30),
  /** Solve runs one user may have running at once across all workers, per plan: `4`, or `FREE=1,PRO=2,ENTERPRISE=4`. */
  MAX_ACTIVE_RUNS_PER_USER: ActiveRunCapsSetting,
  /** The release this process runs (e.g. the image tag), shown beside it on the operations page. */
  FIXLOOP_VERSION: z.string().default("unversioned"),
  ...ProviderEnv.shape,
  /** Seconds one model request may take before it counts as a transient failure and is retried. */
  MODEL_TIMEOUT_SECONDS: z.coerce.number().positive().default(300),
  /** `on`: step 3 asks the run's model once which of the top candidate files to edit (a cheap extra request per solve). */
  MODEL_RERANK: z.enum(["on", "off"]).default("off"),
  /** Most model turns of one Investigate agent; it then stops and keeps the edits it made. */
  AGENT_MAX_TURNS: z.coerce.number().int().min(2).max(200).default(30),
  /** Wall-clock limit of one Investigate agent's loop, seconds (its tools and model turns together). */
  AGENT_WALL_SECONDS: z.coerce.number().int().min(10).max(7200).default(1200),
  /** Time limit of one command the agent runs in the sandbox, seconds (below SANDBOX_TIMEOUT_SECONDS). */
  AGENT_RUN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** Operator default of "present unverified solutions" for users who set nothing; `false` ends such runs with no solution. */
  PRESENT_UNVERIFIED: z
    .enum(["true", "false"])
    .default("true")
    .transform((v) => v === "true"),
  /** Prices of those models, `model=input/output` in USD per million tokens, comma separated; unpriced models cost 0. */
  OPENAI_COMPATIBLE_PRICES: PricesSetting,
  /** Default spending caps in USD (per run, per monthly period) for users who set none; unset means no cap. */
  RUN_COST_CAP_USD: CostCapSetting,
  MONTHLY_COST_CAP_USD: CostCapSetting,
  /** Most files the localizer searches; a larger repository is searched in part, with a note in step 3. */
  LOCALIZE_MAX_FILES: z.coerce.number().int().min(100).default(100_000),
  /** Threads one worker process uses for the localizer's parsing and tokenizing; unset: one per core, at most 4; 0: none. */
  LOCALIZE_THREADS: z.coerce.number().int().min(0).max(64).optional(),
  /** OpenAI-compatible embeddings endpoint (`…/v1`); with EMBEDDINGS_MODEL it turns on the embedding rerank of localized files. */
  EMBEDDINGS_BASE_URL: z.string().default(""),
  /** Embedding model id served there, e.g. `text-embedding-3-small` or a self-hosted code embedding model. */
  EMBEDDINGS_MODEL: z.string().default(""),
  /** Key for that endpoint; empty for servers that take none. */
  EMBEDDINGS_API_KEY: z.string().default(""),
  /** How many of the localizer's best files the embedding rerank reorders. */
  EMBEDDINGS_RERANK_TOP: z.coerce.number().int().min(2).max(200).default(30),
  /** Most files one pull request may change; larger solutions are refused before any push. */
  PR_MAX_FILES: z.coerce.number().int().min(1).default(50),
  /** Most changed lines (added + removed) one pull request may carry. */
  PR_MAX_CHANGED_LINES: z.coerce.number().int().min(1).default(5000),
  /** Largest pull request in bytes (UTF-8): any one file's new contents, and all of them together. */
  PR_MAX_BYTES: z.coerce.number().int().min(1).default(1_000_000),
  /** Seconds between polls of open pull requests in repositories that sent no webhook in the last hour; 0 turns the poll off. */
  PR_POLL_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  /** Most pull requests one poll reads (least recently read first); the rest wait for the next poll. */
  PR_POLL_MAX_PER_TICK: z.coerce.number().int().min(1).max(1000).default(50),
  /** Seconds between sweeps that re-enqueue runs Postgres says are unfinished. */
  SWEEP_INTERVAL_SECONDS: z.coerce.number().min(1).default(30),
  /** Where the repository's tests run: bwrap (default on Linux when bwrap is on PATH), docker, or off. */
  SANDBOX_BACKEND: z.enum(["bwrap", "docker", "off"]).optional(),
  /** Docker images per language for SANDBOX_BACKEND=docker, e.g. `node=node:20-bookworm-slim,python=python:3.12-slim`. */
  SANDBOX_DOCKER_IMAGES: z.string().default(""),
  /** Hosts a networked setup may reach through the egress proxy (names, `*.suffix`, or `ip:port`), comma separated. */
  SANDBOX_ALLOWED_HOSTS: z
    .string()
    .default(DEFAULT_ALLOWED_HOSTS.join(","))
    .superRefine((v, ctx) => {
      try {
        parseAllowedHosts(v);
      } catch (err) {
        ctx.addIssue({ code: "custom", message: (err as Error).message });
      }
    }),
  /** Wall-clock limit of one test run (setup or tests): a ceiling, which .fixloop.yml or the repository setting may only lower. */
  SANDBOX_TIMEOUT_SECONDS: z.coerce.number().int().min(5).max(3600).default(300),
  /** Address space per sandboxed process, MiB. */
  SANDBOX_MEMORY_MB: z.coerce.number().int().min(256).default(4096),
  /** Memory of the whole sandbox (all its processes, its /tmp), MiB: a cgroup where the worker can create one. */
  SANDBOX_TOTAL_MEMORY_MB: z.coerce.number().int().min(64).default(4096),
  /** Size of the sandbox's /tmp and of its /dev/shm (each), MiB. */
  SANDBOX_TMP_MB: z.coerce.number().int().min(1).default(512),
  /** Disk the workspace (repository + whatever setup and tests write) may use while a command runs, MiB; over it the run is stopped. */
  SANDBOX_DISK_MB: z.coerce.number().int().min(16).default(4096),
  /** Processes the sandbox may run at once (per process tree and, with a cgroup, in total). */
  SANDBOX_MAX_PROCESSES: z.coerce.number().int().min(16).default(256),
  /** Largest file a sandboxed process may write, MiB. */
  SANDBOX_MAX_FILE_MB: z.coerce.number().int().min(1).default(512),
  /** Test output kept per run (the last KiB), shown as the log tail. */
  SANDBOX_OUTPUT_KB: z.coerce.number().int().min(4).default(256),
  /** Extra host directories bound read-only into the sandbox (toolchains outside /usr), comma separated. */
  SANDBOX_EXTRA_PATHS: z.string().default(""),
  /** How often a worker serving solve or tests-rerun attacks its own sandbox again (it also does at start), seconds. */
  SANDBOX_CHECK_INTERVAL_SECONDS: z.coerce.number().int().min(5).default(900),
  /** Directory of test workspaces; default `<FIXLOOP_DATA_DIR or .data>/workspaces`. */
  WORKSPACE_DIR: z.string().optional(),
  FIXLOOP_DATA_DIR: z.string().default(".data"),
  /** Size of the cached base trees (least recently used go first), MiB. */
  WORKSPACE_CACHE_MB: z.coerce.number().int().min(16).default(2048),
  /** Largest repository materialised for tests, MiB. */
  WORKSPACE_MAX_REPO_MB: z.coerce.number().int().min(1).default(500),
});
export type WorkerEnv = z.infer<typeof WorkerEnv>;

export const loadWorkerEnv = (source: Record<string, string | undefined> = process.env): WorkerEnv =>
  loadEnv(WorkerEnv, source, "worker");
