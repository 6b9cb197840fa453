import { type FileChange, type SolutionTests, type TestsEvent } from "@fixloop/contract";
import type { Issue, repositories } from "@fixloop/db";
import { compareRuns } from "./compare";
import { NETWORK_NOT_GRANTED, NETWORK_UNSUPPORTED, trustedRepository } from "./detect";
import { noTests, solutionTests, type Attempt } from "./evidence";
import { disposePrepared, prepareTests, runPatched, type Prepared, type TestsDeps } from "./run-tests";
import { phaseLimits } from "./tests.limits";
import { noneRelatedTests, widening, withPassedBefore } from "./widen";

export interface RerunInput {
  issue: Issue;
  commit: string;
  files: FileChange[];
  revision: number;
  /** The user's row for the issue's repository (else the fork's): its test settings, and whether its tree is trusted. */
  repository: repositories.RepositoryForTests | undefined;
  fetch: (dir: string) => Promise<void>;
  /** The test files the solve chose (a detected command runs them, not the whole suite). */
  related?: { files: string[] };
}

/** What a re-run found: the tests' evidence, and what `also` returned (null when the tests could not be set up). */
export interface Rerun<T> {
  tests: SolutionTests;
  also: T | null;
}

/**
 * The repository's tests on a solution's current (hand-edited) files, in the same sandbox and with
 * the same base reuse as the validating step: the base results of the commit come from the cache
 * when an earlier run stored them, a networked setup runs on the base tree only. The evidence it
 * returns is about exactly these files (`rerun.revision`).
 */
export async function rerunTests<T = never>(
  deps: TestsDeps,
  i: RerunInput,
  /** One more check on the same set-up base tree once the tests ran (the reproduction test's). */
  also?: (prepared: Prepared, timeoutMs: number) => Promise<T>,
): Promise<Rerun<T>> {
  const [owner = "", repo = ""] = i.issue.repo_full_name.split("/");
  const prepared = await prepareTests(deps, {
    owner,
    repo,
    commit: i.commit,
    settings: i.repository?.testSettings ?? null,
    trusted: trustedRepository(i.issue.repo_full_name, i.repository, i.issue.is_imported),
    fetch: i.fetch,
    ...(i.related ? { related: i.related } : {}),
  });
  const at = new Date().toISOString();
  if ("reason" in prepared)
    return {
      tests: { ...noTests(deps.backend, "skipped", prepared.reason), rerun: { revision: i.revision, at } },
      also: null,
    };
  try {
    // The edited files' own tests run on the base tree too, as in the solve.
    const wide = await widening(deps, prepared, () => [], deps.signal ?? new AbortController().signal)(i.files);
    // No test relates to the edited files and they write none: nothing runs, as in the solve.
    if (wide.none) {
      const more = also ? await also(prepared, phaseLimits(deps.limits, prepared.plan).timeoutMs) : null;
      return { tests: { ...noneRelatedTests(deps.backend), rerun: { revision: i.revision, at } }, also: more };
    }
    const run = await runPatched(deps, prepared, i.files, "patched", wide.command);
    const attempt: Attempt = {
      label: "first",
      run,
      cmp: withPassedBefore(compareRuns(wide.base, run), wide, run),
      files: i.files,
      base: wide.base,
      ...(wide.command ? { command: wide.command } : {}),
    };
    const notes = [
      ...(prepared.plan.networkNotGranted ? [NETWORK_NOT_GRANTED] : []),
      ...(prepared.plan.networkUnsupported ? [NETWORK_UNSUPPORTED] : []),
    ];
    const timeoutMs = phaseLimits(deps.limits, prepared.plan).timeoutMs;
    const tests = solutionTests(
      deps.backend,
      wide.command ?? prepared.plan.command,
      prepared.base,
      [attempt],
      attempt,
      timeoutMs,
      notes,
    );
    const more = also ? await also(prepared, timeoutMs) : null;
    const selection = prepared.plan.selection;
    return {
      tests: {
        ...tests,
        ...(selection ? { selection } : {}),
        rerun: { revision: i.revision, at: new Date().toISOString() },
      },
      also: more,
    };
  } finally {
    await disposePrepared(prepared, deps.onCleanupError);
  }
}

/** A `tests` event as one entry of the re-run's Redis stream. */
export const rerunEntry = (e: TestsEvent): string[] => ["data", JSON.stringify(e)];
