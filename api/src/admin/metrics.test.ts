import { expect, it } from "vitest";
import { Worker } from "bullmq";
import { eventually, insertIssue } from "@fixloop/testkit";
import { redisConnection } from "@fixloop/runtime";
import { STEP_IDS } from "@fixloop/contract";
import { solveKit } from "../../test/solve.testkit";
import { startTestWorkers } from "../../test/testing";

const t = solveKit({ workers: ["solve"] });

const scrape = async () => {
  const res = await t.stack.app.request("/metrics");
  expect(res.status).toBe(200);
  return res.text();
};
/** Sum of the samples whose name and labels start with `series` (e.g. `x{queue="solve"` sums over the other labels). */
const total = (text: string, series: string) =>
  text
    .split("\n")
    .filter((l) => l.startsWith(series))
    .reduce((n, l) => n + Number(l.slice(l.lastIndexOf(" ") + 1)), 0);
/** Scrapes until `ok` holds (workers record their figures a moment after a job ends). */
const scrapeUntil = (ok: (text: string) => boolean): Promise<string> =>
  eventually(
    async () => {
      const text = await scrape();
      return ok(text) ? text : false;
    },
    { timeout: 10_000, interval: 100, what: "the figures in /metrics" },
  );

const FAMILIES = {
  fixloop_queue_jobs: "gauge",
  fixloop_queue_oldest_waiting_seconds: "gauge",
  fixloop_queue_workers: "gauge",
  fixloop_job_duration_seconds: "histogram",
  fixloop_step_duration_seconds: "histogram",
  fixloop_job_failures_total: "counter",
  fixloop_job_retries_total: "counter",
  fixloop_jobs_stalled_total: "counter",
  fixloop_sandbox_runs_total: "counter",
  fixloop_model_spend_usd_total: "counter",
} as const;

const FIX = { search: "const TRAILING = / +$/;\n", replace: "const TRAILING = /[ \\t]+$/;\n" };

it("serves each operations family on /metrics, cluster-wide figures included, and each moves with the system", async () => {
  const before = await scrape();
  for (const [name, type] of Object.entries(FAMILIES)) expect(before).toContain(`# TYPE ${name} ${type}`);
  expect(total(before, 'fixloop_queue_workers{queue="solve"}')).toBeGreaterThan(0);
  expect(total(before, 'fixloop_queue_workers{queue="fork"}')).toBe(0);
  expect(total(before, 'fixloop_queue_oldest_waiting_seconds{queue="sync"}')).toBe(0);

  // A solve run with the repository's tests, through the real worker and sandbox.
  t.models.control.respondWith((p) => p.includes("trailing-spaces"), {
    analysis: "TRAILING only matches spaces.",
    proposedSolution: "Match tabs too.",
    confidence: 80,
    files: [{ filename: "src/rules/trailing-spaces.js", action: "modify", edits: [FIX] }],
  });
  const issue = await insertIssue(t.stack.db, t.userId);
  const res = await t.generate({ issueId: issue.id }, { wait: true });
  expect(res.status, await res.clone().text()).toBe(200);
  // A job whose payload is refused fails for good, with its code.
  await t.stack.deps.queues.solve.add("solve", { runId: 42 } as never);
  // A job nobody serves waits.
  await t.stack.deps.queues.sync.add("x", { kind: "repositories", userId: t.userId });

  const done = 'fixloop_job_duration_seconds_count{queue="solve",result="completed"}';
  const refused = 'fixloop_job_failures_total{queue="solve",code="job.invalid_payload"}';
  const after = await scrapeUntil((x) => total(x, done) >= 1 && total(x, refused) >= 1);
  expect(total(after, done)).toBe(1);
  expect(total(after, 'fixloop_job_duration_seconds_bucket{queue="solve",result="completed",le="+Inf"}')).toBe(1);
  expect(total(after, refused)).toBe(1);
  for (const step of STEP_IDS)
    expect(total(after, `fixloop_step_duration_seconds_count{step="${step}"}`), step).toBe(1);
  expect(total(after, 'fixloop_sandbox_runs_total{phase="base"')).toBe(1);
  // The kept reproduction test on the base tree, the candidate, and the candidate with the reproduction.
  expect(total(after, 'fixloop_sandbox_runs_total{phase="patched"')).toBe(3);
  expect(total(after, "fixloop_model_spend_usd_total{")).toBeGreaterThan(0);
  expect(total(after, 'fixloop_queue_jobs{queue="sync",state="waiting"}')).toBe(1);
  expect(total(after, 'fixloop_queue_oldest_waiting_seconds{queue="sync"}')).toBeGreaterThan(0);

  // A fork job whose worker died: active, its lock gone; the stall check of the next fork worker puts it back.
  const fork = t.stack.deps.queues.fork;
  await fork.add("fork", { bad: true } as never);
  const dead = new Worker("fork", null, {
    connection: redisConnection(t.stack.deps.env.REDIS_URL),
    prefix: t.stack.prefix,
  });
  const job = await dead.getNextJob("dead-worker");
  await dead.close();
  const keyOf = (suffix: string) => `${t.stack.prefix}:fork:${suffix}`;
  await t.stack.redis.del(keyOf(`${job?.id}:lock`));
  await t.stack.redis.sadd(keyOf("stalled"), String(job?.id)); // as an earlier stall check left it
  startTestWorkers(t.stack, ["fork"]);
  const stalled = 'fixloop_jobs_stalled_total{queue="fork"}';
  const last = await scrapeUntil((x) => total(x, stalled) >= 1 && total(x, 'fixloop_queue_workers{queue="fork"}') > 0);
  expect(total(last, stalled)).toBe(1);
  expect(total(last, 'fixloop_queue_workers{queue="fork"}')).toBeGreaterThan(0);
});
