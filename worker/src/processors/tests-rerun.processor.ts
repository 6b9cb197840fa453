import path from "node:path";
import type { Job } from "bullmq";
import { claims, repositories, solutions, testsRerun, type Claim } from "@fixloop/db";
import {
  SolutionTests,
  solutionReproductionOf,
  QUEUES,
  TestsRerunJob,
  testsRerunKey,
  type ReproductionResult,
  type TestsEvent,
  type TestsRerunResult,
} from "@fixloop/contract";
import type { WorkerContext } from "../context";
import { githubForUser } from "@fixloop/runtime";
import { abstain, attemptEvidence } from "../pipeline/steps/validating/abstention";
import { reproductionFile, scoreReproduction } from "../pipeline/steps/validating/reproduction.run";
import { noTests } from "../tests-run/evidence";
import { rerunEntry, rerunTests } from "../tests-run/rerun";
import { testsConfig, testsDeps } from "../tests-run/tests.config";
import { scrubHostPaths } from "../tests-run/workspace.cleanup";
import { fetchTreeInto } from "../tests-run/workspace.github";
import { lockLost } from "../job.lock";
import { defineProcessor } from "./processor.define";

const STREAM_TTL_SECONDS = 24 * 3600;

/** Said in a re-run's stream when its job starts again after a worker stopped during it; counts start over. */
const RERUN_RESTARTED =
  "\n— The worker running these tests stopped before they ended; they start again from the beginning. —\n";
const restartedEvent = (at: string): TestsEvent => ({
  type: "tests",
  phase: "base",
  output: RERUN_RESTARTED,
  counts: { passed: 0, failed: 0, errored: 0 },
  done: false,
  at,
});

/**
 * Runs a hand-edited solution's tests again and replaces its stale evidence, streaming the output
 * live (a Redis stream per solution revision, relayed by the API). A newer edit meanwhile wins: its
 * own job runs, and this one's evidence is dropped. The re-run is claimed on the solution's row: a
 * worker that lost the job's lock gives the claim up, stops the tests at once and writes neither
 * output nor evidence (ClaimLost); the worker that now holds the job runs them.
 */
export const processTestsRerun = defineProcessor({
  name: QUEUES.testsRerun,
  what: (job) => `the tests re-run of job ${job.id}`,
  run: ({ job, ctx, signal, claim }) => rerun(job, ctx, signal, claim),
  async onLockLost({ job, ctx, claim }) {
    const { solutionId } = TestsRerunJob.parse(job.data);
    await claims.releaseClaim(ctx.db, { kind: "testsRerun", id: solutionId, token: claim });
  },
});

async function rerun(job: Job, ctx: WorkerContext, signal: AbortSignal, token: string): Promise<TestsRerunResult> {
  const { userId, solutionId, revision } = TestsRerunJob.parse(job.data);
  const key = testsRerunKey(ctx.queues.prefix, solutionId, revision);
  const end = async (status: string) => {
    await ctx.redis.xadd(key, "*", "end", status);
    await ctx.redis.expire(key, STREAM_TTL_SECONDS);
  };
  const claim: Claim | null = await solutions.claimTestsRerun(ctx.db, solutionId, revision, token);
  const found = claim && (await testsRerun.forTestsRerun(ctx.db, userId, solutionId));
  if (!claim || !found || found.revision !== revision || !found.baseCommitSha) {
    await end("skipped");
    return { replaced: false };
  }
  // A worker that stopped mid-run (its drain ran out, or it crashed) left this revision's stream
  // half-written and the job went back to the queue: the reader is told that what it saw is void.
  if ((await ctx.redis.xlen(key)) > 0)
    await ctx.redis.xadd(key, "*", ...rerunEntry(restartedEvent(new Date().toISOString())));
  const cfg = testsConfig(ctx.env);
  const commit = found.baseCommitSha;
  // A kept reproduction test runs on the edited files too: the verdict needs it as the solve's did.
  const reproduction = solutionReproductionOf(found.reproduction);
  const kept = reproduction?.status === "kept" ? reproduction : null;
  let tests: SolutionTests;
  let repro: ReproductionResult | null = null;
  // The test files the solve chose run again (with those the edited files write); the whole suite only if it ran then.
  const earlier = SolutionTests.shape.selection.safeParse((found.tests as { selection?: unknown } | null)?.selection);
  const chosen = earlier.success && earlier.data?.scope === "related" ? earlier.data.files.map((f) => f.path) : null;
  if (!cfg.runner) tests = noTests(cfg.backend, "skipped", "sandbox off");
  else {
    try {
      const gh = (await githubForUser(ctx, userId)).client;
      const [owner = "", repo = ""] = found.issue.repo_full_name.split("/");
      const names = [found.issue.repo_full_name, found.issue.fork_full_name];
      const repository = await repositories.findFirstWithTestSettings(ctx.db, userId, names);
      const deps = testsDeps(cfg, ctx, {
        // Output arriving after the lock is lost is not the new holder's stream's to show.
        emit: async (e: TestsEvent) => (lockLost(signal) ? null : ctx.redis.xadd(key, "*", ...rerunEntry(e))),
        signal,
        onCleanupError: (err) => ctx.logger.warn({ solutionId, err: err.message }, "workspace cleanup failed"),
      });
      const rerun = await rerunTests(
        deps,
        {
          issue: found.issue,
          commit,
          files: found.files,
          revision,
          repository,
          ...(chosen ? { related: { files: chosen } } : {}),
          fetch: (dir) =>
            fetchTreeInto(gh, owner, repo, commit, dir, { maxBytes: cfg.maxRepoBytes, signal }).then(() => undefined),
        },
        kept
          ? (prepared, timeoutMs) =>
              scoreReproduction(
                deps,
                prepared,
                { file: reproductionFile(kept), failing: kept.failing },
                found.files,
                timeoutMs,
              )
          : undefined,
      );
      tests = rerun.tests;
      repro = kept && rerun.also ? { test: kept.filename, status: rerun.also } : null;
    } catch (err) {
      const message = scrubHostPaths((err as Error).message, [cfg.cache.root, path.resolve(ctx.env.FIXLOOP_DATA_DIR)]);
      ctx.logger.warn({ solutionId, err: (err as Error).message }, "tests re-run failed");
      tests = { ...noTests(cfg.backend, "error", message), cause: "workspace" };
    }
  }
  // The verdict on the edited files, as the validating step draws it for a single attempt. Written
  // under the claim: after a lost lock (the tests were stopped) ClaimLost, and no end is said.
  const unverified = abstain([attemptEvidence(tests, found.blocked, repro)], kept);
  const replaced = await solutions.replaceTests(ctx.db, claim, revision, SolutionTests.parse(tests), {
    unverified,
    reproduction: reproduction && { ...reproduction, passesWithSolution: repro ? repro.status === "fixed" : null },
  });
  await end(replaced ? tests.status : "superseded");
  return { replaced };
}
