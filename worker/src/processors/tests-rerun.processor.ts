import path from "node:path";
import type { Job } from "bullmq";
import { repositories, testsRerun } from "@fixloop/db";
import { SolutionTests, TestsRerunJob, testsRerunKey, type TestsEvent, type TestsRerunResult } from "@fixloop/contract";
import type { WorkerContext } from "../context";
import { githubForUser } from "@fixloop/runtime";
import { noTests } from "../tests-run/evidence";
import { rerunEntry, rerunTests } from "../tests-run/rerun";
import { testsConfig, testsDeps } from "../tests-run/tests.config";
import { scrubHostPaths } from "../tests-run/workspace.cleanup";
import { fetchTreeInto } from "../tests-run/workspace.github";

const STREAM_TTL_SECONDS = 24 * 3600;

/**
 * Runs a hand-edited solution's tests again and replaces its stale evidence, streaming the output
 * live (a Redis stream per solution revision, relayed by the API). A newer edit meanwhile wins: its
 * own job runs, and this one's evidence is dropped.
 */
export async function processTestsRerun(job: Job, ctx: WorkerContext, signal: AbortSignal): Promise<TestsRerunResult> {
  const { userId, solutionId, revision } = TestsRerunJob.parse(job.data);
  const key = testsRerunKey(ctx.queues.prefix, solutionId, revision);
  const end = async (status: string) => {
    await ctx.redis.xadd(key, "*", "end", status);
    await ctx.redis.expire(key, STREAM_TTL_SECONDS);
  };
  const found = await testsRerun.forTestsRerun(ctx.db, userId, solutionId);
  if (!found || found.revision !== revision || !found.baseCommitSha) {
    await end("skipped");
    return { replaced: false };
  }
  const cfg = testsConfig(ctx.env);
  const commit = found.baseCommitSha;
  let tests: SolutionTests;
  if (!cfg.runner) tests = noTests(cfg.backend, "skipped", "sandbox off");
  else {
    try {
      const gh = (await githubForUser(ctx, userId)).client;
      const [owner = "", repo = ""] = found.issue.repo_full_name.split("/");
      const names = [found.issue.repo_full_name, found.issue.fork_full_name];
      const settings = (await repositories.findFirstWithTestSettings(ctx.db, userId, names))?.testSettings ?? null;
      tests = await rerunTests(
        testsDeps(cfg, ctx, {
          emit: async (e: TestsEvent) => ctx.redis.xadd(key, "*", ...rerunEntry(e)),
          signal,
          onCleanupError: (err) => ctx.logger.warn({ solutionId, err: err.message }, "workspace cleanup failed"),
        }),
        {
          issue: found.issue,
          commit,
          files: found.files,
          revision,
          settings,
          fetch: (dir) =>
            fetchTreeInto(gh, owner, repo, commit, dir, { maxBytes: cfg.maxRepoBytes, signal }).then(() => undefined),
        },
      );
    } catch (err) {
      const message = scrubHostPaths((err as Error).message, [cfg.cache.root, path.resolve(ctx.env.FIXLOOP_DATA_DIR)]);
      ctx.logger.warn({ solutionId, err: (err as Error).message }, "tests re-run failed");
      tests = { ...noTests(cfg.backend, "error", message), cause: "workspace" };
    }
  }
  const replaced = await testsRerun.replaceTests(ctx.db, solutionId, revision, SolutionTests.parse(tests));
  await end(replaced ? tests.status : "superseded");
  return { replaced };
}
