import type { FileChange, ReproductionResult, SolutionReproduction } from "@fixloop/contract";
import { couldNotRun } from "../../../tests-run/compare";
import { runPatched, type Prepared, type TestsDeps } from "../../../tests-run/run-tests";

/** A kept reproduction test: its file, and its tests that failed on the base tree. */
export interface KeptReproduction {
  file: FileChange;
  failing: string[];
}

type Status = ReproductionResult["status"];

/** The reproduction runs are the step's own checks: they stream no output to the solve page. */
const quiet = (deps: TestsDeps): TestsDeps => ({ ...deps, emit: () => Promise.resolve() });

export const reproductionFile = (t: { filename: string; content: string }): FileChange => ({
  filename: t.filename,
  action: "create",
  content: t.content,
  originalContent: "",
});

/**
 * The reproduction file on its own, with the detected runner (whatever the user's command is);
 * with a runner that cannot run one file, the test command with the file added.
 */
export const reproductionCommand = (prepared: Prepared, filename: string): string | undefined =>
  prepared.selector?.accepts(filename) ? prepared.selector.command([filename]) : undefined;

/**
 * Runs the reproduction test on the base tree (in the sandbox, offline, on the base tree's set-up
 * dependencies): on its own where the runner can, else with the test command. Kept only when it
 * runs and at least one of its tests (those the base run did not have) fails.
 */
export async function checkReproduction(
  deps: TestsDeps,
  prepared: Prepared,
  test: { filename: string; content: string },
  timeoutMs: number,
): Promise<{ stored: SolutionReproduction; kept: KeptReproduction | null }> {
  const file = reproductionFile(test);
  const alone = reproductionCommand(prepared, file.filename);
  const run = await runPatched(quiet(deps), prepared, [file], "patched", alone);
  const stopped = couldNotRun(run, timeoutMs);
  const own = Object.entries(run.results).filter(([name]) => !(name in prepared.base.results));
  const failing = own.filter(([, o]) => o === "fail" || o === "error").map(([n]) => n);
  const discard = (why: string) => ({
    stored: {
      ...test,
      status: "discarded" as const,
      note: `Reproduction test discarded: ${why}`,
      failing: [],
      passesWithSolution: null,
    },
    kept: null,
  });
  if (run.cancelled) return discard("could not run (cancelled)");
  if (stopped) return discard(`could not run (${stopped.reason})`);
  if (!own.length)
    return discard(`could not run (\`${alone ?? prepared.plan.command}\` reported no test from ${test.filename})`);
  if (!failing.length) return discard(`passes on the base tree (${test.filename})`);
  return {
    stored: {
      ...test,
      status: "kept",
      note: `Reproduction test kept: ${test.filename} fails on the base tree (${failing.slice(0, 3).join(", ")})`,
      failing,
      passesWithSolution: null,
    },
    kept: { file, failing },
  };
}

/** Whether a candidate's files make the reproduction pass: its failing tests all pass with them applied. */
export async function scoreReproduction(
  deps: TestsDeps,
  prepared: Prepared,
  kept: KeptReproduction,
  files: FileChange[],
  timeoutMs: number,
): Promise<Status> {
  // A candidate that writes the reproduction's own path replaces it: the reproduction did not run.
  if (files.some((f) => f.filename === kept.file.filename)) return "not-run";
  const run = await runPatched(
    quiet(deps),
    prepared,
    [...files, kept.file],
    "patched",
    reproductionCommand(prepared, kept.file.filename),
  );
  if (run.cancelled || couldNotRun(run, timeoutMs)) return "not-run";
  return kept.failing.every((n) => run.results[n] === "pass") ? "fixed" : "still-failing";
}
