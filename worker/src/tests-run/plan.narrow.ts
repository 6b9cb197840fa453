import type { PhaseRun } from "./compare";
import type { TestPlan } from "./detect";
import { relatedTests, type RelatedInput, type Selector } from "./select";

/** The base "run" when no test relates to the issue: nothing ran. */
export const NO_TESTS_RUN: PhaseRun = {
  counts: { passed: 0, failed: 0, errored: 0, durationMs: 0 },
  results: {},
  runners: [],
  exitCode: 0,
  timedOut: false,
  setupFailed: false,
  logTail: "",
};

/** The plan of a solve where no test file relates to the issue. */
export const noneRelated = (plan: TestPlan) => plan.selection?.scope === "related" && !plan.selection.files.length;

/** Said when a solve finds no test file related to the issue (the whole suite runs only on request). */
export const NO_RELATED_TESTS =
  "No test file relates to the issue or to the files chosen for it, so no repository test ran; only the reproduction test can prove the change (a test command in the repository's test settings or `test:` in .fixloop.yml runs the whole suite)";

/**
 * The plan narrowed to the tests that matter: a detected command runs the related test files with
 * the runner's own syntax; a configured command (settings, `.fixloop.yml`) runs as written, the
 * whole suite being what the user asked for. Null: nothing relates, nothing to run.
 */
export function narrow(
  plan: TestPlan,
  selector: Selector | null,
  related: RelatedInput | { files: string[] } | undefined,
): TestPlan {
  if (plan.source !== "detected")
    return {
      ...plan,
      selection: {
        scope: "suite",
        files: [],
        note: `The command from ${plan.source === "settings" ? "the repository's test settings" : ".fixloop.yml"} runs as written`,
      },
    };
  if (!related) return plan;
  if (!selector)
    return {
      ...plan,
      selection: {
        scope: "suite",
        files: [],
        note: `The whole suite runs: \`${plan.command}\` cannot be narrowed to test files`,
      },
    };
  const files =
    "files" in related
      ? related.files.filter((f) => selector.accepts(f)).map((f) => ({ path: f, why: "chosen by the solve" }))
      : relatedTests(related, selector);
  if (!files.length) return { ...plan, selection: { scope: "related", files: [], note: NO_RELATED_TESTS } };
  return {
    ...plan,
    command: selector.command(files.map((f) => f.path)),
    selection: {
      scope: "related",
      files,
      note: `Ran the ${files.length} test file(s) related to the change (${selector.runner})`,
    },
  };
}
