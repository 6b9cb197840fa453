import fs from "node:fs/promises";
import { repositories } from "@fixloop/db";
import {
  runSetupNetworkOf,
  type AnalyzingOutput,
  type ContextOutput,
  type DependenciesOutput,
} from "@fixloop/contract";
import { githubForUser } from "@fixloop/runtime";
import type { WorkerContext } from "../../../context";
import { trustedRepository } from "../../../tests-run/detect";
import { prepareTests, type Prepared, type TestsDeps } from "../../../tests-run/run-tests";
import type { RelatedInput } from "../../../tests-run/select";
import type { TestsConfig } from "../../../tests-run/tests.config";
import { fetchTreeInto } from "../../../tests-run/workspace.github";
import type { StepEnv } from "../step";

/** What the tests that matter are for this run: the issue's text and step 3's files with the tests near each. */
export const relatedOf = (a: AnalyzingOutput, c: ContextOutput, d: DependenciesOutput): RelatedInput => {
  let sizes: Map<string, number> | undefined;
  return {
    chosen: d.files.map((f) => ({ path: f.path, tests: d.testsNear[f.path] ?? [] })),
    issueText: `${a.title}\n${a.body}`,
    allPaths: c.allPaths,
    sizeOf: (p) => (sizes ??= new Map(c.files.map((f) => [f.path, f.size]))).get(p),
  };
};

/**
 * The base tree of the run's commit, its test plan and its test results (the repository's test
 * settings; for an imported issue the user's fork's when the user has no row for the upstream).
 * A detected command runs the tests related to the issue (`related`).
 */
export async function prepareBase(
  deps: TestsDeps,
  cfg: Pick<TestsConfig, "maxRepoBytes">,
  {
    analyzing: a,
    context: c,
    dependencies: d,
  }: { analyzing: AnalyzingOutput; context: ContextOutput; dependencies: DependenciesOutput },
  i: StepEnv,
  ctx: WorkerContext,
): Promise<Prepared | { reason: string }> {
  const gh = (await githubForUser(ctx, i.run.user_id)).client;
  const full = `${c.owner}/${c.repo}`;
  const row = await repositories.findFirstWithTestSettings(ctx.db, i.run.user_id, [full, i.issue.fork_full_name]);
  return prepareTests(deps, {
    owner: c.owner,
    repo: c.repo,
    commit: c.commitSha,
    settings: row?.testSettings ?? null,
    trusted: trustedRepository(full, row, i.issue.is_imported),
    setupNetwork: runSetupNetworkOf(i.run.input),
    related: relatedOf(a, c, d),
    fetch: (dir) =>
      fetchTreeInto(gh, c.owner, c.repo, c.commitSha, dir, { maxBytes: cfg.maxRepoBytes, signal: i.signal }).then(
        () => undefined,
      ),
  });
}

/** Base trees step 4 prepared, by run, for step 5 of the same run in this process (a few at most). */
const kept = new Map<string, Prepared>();
const KEPT_MAX = 16;

/**
 * Keeps a prepared base tree for the run's next step. The caller still disposes of its networked
 * set-up copy (if any), so nothing is left on disk when that step never comes; the next patched run
 * sets up again.
 */
export function keepPrepared(runId: string, prepared: Prepared) {
  kept.delete(runId);
  kept.set(runId, prepared);
  for (const old of kept.keys()) if (kept.size > KEPT_MAX) kept.delete(old);
}

/** The base tree step 4 prepared for this run, when it is still on disk (else null: prepare it again). */
export async function takePrepared(runId: string): Promise<Prepared | null> {
  const p = kept.get(runId);
  kept.delete(runId);
  if (!p) return null;
  const intact = await fs.stat(p.baseDir).then(
    (s) => s.isDirectory(),
    () => false,
  );
  return intact ? p : null;
}
