import path from "node:path";
import type { Worker } from "bullmq";
import type { SandboxCheck } from "@fixloop/contract";
import type { WorkerContext } from "../context";
import { bwrapRunner, type BwrapOptions } from "../tests-run/sandbox.bwrap";
import { parseAllowedHosts } from "../tests-run/sandbox.egress.policy";
import { testsConfig } from "../tests-run/tests.config";
import { runSelfCheck } from "./selfcheck";

/** The first retry after a failed check; each further one waits twice as long, up to the interval. */
export const CHECK_RETRY_MS = 5_000;

/**
 * When the next self-check runs, after `failures` failed checks in a row: a passing worker checks
 * again after the interval; a failing one sooner, backing off, so that a check that failed for a
 * passing reason (a probe's answer late on a loaded host) does not leave it idle for the interval.
 */
export function nextCheckDelayMs(failures: number, intervalMs: number): number {
  if (failures <= 0) return intervalMs;
  return Math.min(intervalMs, CHECK_RETRY_MS * 2 ** Math.min(failures - 1, 20));
}

export interface SandboxGate {
  /** The last check's result (null before the first one ends). */
  readonly last: SandboxCheck | null;
  /** The first check's result. */
  readonly first: Promise<SandboxCheck>;
  stop(): void;
}

/**
 * Runs the sandbox self-check at start and every SANDBOX_CHECK_INTERVAL_SECONDS, and lets the
 * gated workers (solve, tests-rerun; created with `autorun: false`) take jobs only while it passes.
 * A failing check pauses them (a job already running ends as it would) and is run again soon
 * (`nextCheckDelayMs`). `bwrap` overrides the
 * bubblewrap options the check's sandbox is built with (tests remove a wall through it).
 */
export function startSandboxGate(
  ctx: WorkerContext,
  gated: Worker[],
  opts: { bwrap?: BwrapOptions; onCheck?: (c: SandboxCheck) => void } = {},
): SandboxGate {
  const { env, logger } = ctx;
  const cfg = testsConfig(env);
  const extra = env.SANDBOX_EXTRA_PATHS.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  /** The worker's bubblewrap sandbox, its egress allowlist extended by `allow`. */
  const bwrapWith = (allow = "") =>
    bwrapRunner({
      extraReadOnly: extra,
      egress: parseAllowedHosts(`${env.SANDBOX_ALLOWED_HOSTS},${allow}`),
      ...opts.bwrap,
    });
  const runner = cfg.backend === "bwrap" && opts.bwrap ? bwrapWith() : cfg.runner;
  const mode = env.SANDBOX_BACKEND === "off" ? "off-explicit" : cfg.backend === "off" ? "off-missing" : "on";
  const hostPaths = [
    "/etc/shadow",
    "/root",
    path.resolve(env.FIXLOOP_DATA_DIR),
    cfg.cache.root,
    path.resolve(process.cwd(), "package.json"),
  ];
  let last: SandboxCheck | null = null;
  let started = false;
  let stopped = false;
  const apply = (c: SandboxCheck) => {
    last = c;
    // After stop the process has left the registry: a heartbeat now would list it again.
    if (stopped) return;
    opts.onCheck?.(c);
    if (c.ok) {
      for (const w of gated) {
        if (!started)
          void w.run().catch((err: Error) => logger.error({ queue: w.name, err: err.message }, "worker stopped"));
        else if (w.isPaused()) w.resume();
      }
      started = true;
      logger.info({ backend: c.backend, mode: c.mode, durationMs: c.durationMs }, "sandbox self-check passed");
    } else {
      for (const w of gated) if (w.isRunning() && !w.isPaused()) void w.pause();
      logger.error(
        { backend: c.backend, mode: c.mode, walls: c.walls, detail: c.detail },
        `sandbox self-check failed: this worker takes no ${gated.map((w) => w.name).join(" or ")} job`,
      );
    }
  };
  const check = () =>
    runSelfCheck({
      backend: cfg.backend,
      mode,
      runner,
      limits: cfg.limits,
      hostPaths,
      scratchRoot: cfg.cache.root,
      egressRunner: cfg.backend === "bwrap" ? bwrapWith : undefined,
    }).then(
      (c) => (apply(c), c),
      (err: Error) => {
        logger.error({ err: err.message }, "sandbox self-check could not run");
        const c: SandboxCheck = {
          backend: cfg.backend,
          mode,
          ok: mode === "off-explicit",
          walls: {},
          detail: { check: err.message },
          totals: null,
          versions: { bwrap: null, kernel: "" },
          durationMs: 0,
          checkedAt: new Date().toISOString(),
        };
        apply(c);
        return c;
      },
    );
  const first = check();
  let timer: NodeJS.Timeout | undefined;
  let failures = 0;
  // One check at a time; the next is timed from the end of the last, sooner after a failure.
  const schedule = (c: SandboxCheck) => {
    if (stopped) return;
    failures = c.ok ? 0 : failures + 1;
    timer = setTimeout(
      () => void check().then(schedule),
      nextCheckDelayMs(failures, env.SANDBOX_CHECK_INTERVAL_SECONDS * 1000),
    );
    timer.unref();
  };
  void first.then(schedule);
  return {
    get last() {
      return last;
    },
    first,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
