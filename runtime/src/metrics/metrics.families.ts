/** Upper bounds (seconds) of the duration histograms: a sync job takes well under a second, a solve with tests up to an hour. */
export const DURATION_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1200, 1800, 3600] as const;

interface Family<L extends string> {
  name: string;
  help: string;
  labelNames: readonly L[];
}
export interface CounterFamily<L extends string = string> extends Family<L> {
  type: "counter";
}
export interface HistogramFamily<L extends string = string> extends Family<L> {
  type: "histogram";
}
export type ClusterFamily = CounterFamily | HistogramFamily;

const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]): CounterFamily<L> => ({
  type: "counter",
  name,
  help,
  labelNames,
});
const histogram = <L extends string>(name: string, help: string, labelNames: readonly L[]): HistogramFamily<L> => ({
  type: "histogram",
  name,
  help,
  labelNames,
});

/**
 * Figures the worker processes record and every API process serves on /metrics. They live in
 * Redis (see metrics.store.ts), so they are cluster-wide and survive a worker's restart.
 */
export const CLUSTER_METRICS = {
  jobDuration: histogram(
    "fixloop_job_duration_seconds",
    "Time a worker spent on a job attempt, by queue and result (completed, failed for good, retried after failing)",
    ["queue", "result"],
  ),
  stepDuration: histogram(
    "fixloop_step_duration_seconds",
    "Time a solve/refine pipeline step took, by step (completed steps)",
    ["step"],
  ),
  jobFailures: counter(
    "fixloop_job_failures_total",
    "Jobs that failed for good (no attempt left or not retryable), by queue and error code",
    ["queue", "code"],
  ),
  jobRetries: counter(
    "fixloop_job_retries_total",
    "Job attempts that failed and were put back for another attempt, by queue and error code",
    ["queue", "code"],
  ),
  jobsStalled: counter(
    "fixloop_jobs_stalled_total",
    "Active jobs whose worker stopped renewing their lock (crashed or killed) and went back to the queue",
    ["queue"],
  ),
  sandboxRuns: counter(
    "fixloop_sandbox_runs_total",
    "Sandboxed test runs (setup and tests of one phase) by phase and result",
    ["phase", "result"],
  ),
} as const;

/** How a sandboxed test run ended. */
export type SandboxRunResult = "passed" | "failed" | "timed_out" | "cancelled" | "limit_hit" | "setup_failed";
