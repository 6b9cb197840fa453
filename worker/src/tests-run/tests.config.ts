import { execFileSync } from "node:child_process";
import path from "node:path";
import type { SandboxBackend } from "@fixloop/contract";
import type { WorkerEnv } from "../env";
import type { SandboxLimits, SandboxRunner } from "./sandbox";
import { bwrapRunner } from "./sandbox.bwrap";
import { parseAllowedHosts } from "./sandbox.egress.policy";
import { dockerRunner, parseDockerImages } from "./sandbox.docker";
import type { WorkspaceCache } from "./workspace";
import type { TestsDeps } from "./run-tests";

/** Whether `bwrap` is on PATH, can start a sandbox here and has the walls the sandbox relies on (0.8: `--disable-userns`). */
export function bwrapAvailable(): boolean {
  if (process.platform !== "linux") return false;
  try {
    return execFileSync("bwrap", ["--help"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).includes(
      "--disable-userns",
    );
  } catch {
    return false;
  }
}

/** SANDBOX_BACKEND, or bwrap when it is installed on Linux, else off. */
export function sandboxBackend(env: Pick<WorkerEnv, "SANDBOX_BACKEND">): SandboxBackend {
  return env.SANDBOX_BACKEND ?? (bwrapAvailable() ? "bwrap" : "off");
}

export interface TestsConfig {
  backend: SandboxBackend;
  runner: SandboxRunner | null;
  limits: SandboxLimits;
  cache: WorkspaceCache;
  maxRepoBytes: number;
}

const MiB = 1024 * 1024;
let detected: SandboxBackend | undefined;

export function testsConfig(env: WorkerEnv): TestsConfig {
  const backend = env.SANDBOX_BACKEND ?? (detected ??= sandboxBackend(env));
  const extra = env.SANDBOX_EXTRA_PATHS.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const runner =
    backend === "bwrap"
      ? bwrapRunner({ extraReadOnly: extra, egress: parseAllowedHosts(env.SANDBOX_ALLOWED_HOSTS) })
      : backend === "docker"
        ? dockerRunner(parseDockerImages(env.SANDBOX_DOCKER_IMAGES))
        : null;
  return {
    backend,
    runner,
    limits: {
      timeoutMs: env.SANDBOX_TIMEOUT_SECONDS * 1000,
      memoryBytes: env.SANDBOX_MEMORY_MB * MiB,
      processes: env.SANDBOX_MAX_PROCESSES,
      fileBytes: env.SANDBOX_MAX_FILE_MB * MiB,
      outputBytes: env.SANDBOX_OUTPUT_KB * 1024,
      totalMemoryBytes: env.SANDBOX_TOTAL_MEMORY_MB * MiB,
      tmpBytes: env.SANDBOX_TMP_MB * MiB,
      diskBytes: env.SANDBOX_DISK_MB * MiB,
    },
    cache: {
      root: path.resolve(env.WORKSPACE_DIR ?? path.join(env.FIXLOOP_DATA_DIR, "workspaces")),
      maxBytes: env.WORKSPACE_CACHE_MB * MiB,
    },
    maxRepoBytes: env.WORKSPACE_MAX_REPO_MB * MiB,
  };
}

/**
 * What one job's test runs need: the server's sandbox (runner, backend, workspace cache, limits),
 * this worker's Redis and queue prefix, and what the job does with events, cancel and cleanup failures.
 */
export function testsDeps(
  cfg: Pick<TestsConfig, "runner" | "backend" | "cache" | "limits">,
  ctx: { redis: TestsDeps["redis"]; queues: { prefix: string } },
  job: Pick<TestsDeps, "emit" | "signal" | "onCleanupError">,
): TestsDeps {
  return {
    runner: cfg.runner,
    backend: cfg.backend,
    cache: cfg.cache,
    limits: cfg.limits,
    redis: ctx.redis,
    prefix: ctx.queues.prefix,
    ...job,
  };
}
