import { createHash } from "node:crypto";
import type { FileChange, SandboxBackend, SolutionTests } from "@fixloop/contract";
import { couldNotRun, type PhaseRun } from "./compare";
import { noTests } from "./evidence";
import type { Outcome } from "./parse.types";
import { NO_RELATED_TESTS } from "./plan.narrow";
import { runPatched, type Prepared, type TestsDeps } from "./run-tests";
import { patchTestFiles } from "./select";

/** Test files near each changed file that also run with the change (best first). */
const NEAR_PER_FILE = 3;

/** What a change's tests are compared with: the base results (with the change's own tests run on the base tree) and the command. */
export interface Widened {
  base: PhaseRun;
  /** The runner on the related tests plus the change's; undefined: the plan's command. */
  command?: string;
  /** No test relates to the change and it writes none: nothing to run. */
  none?: boolean;
  /** Tests beyond the base run's that passed on the base tree with the change's test files: never proof. */
  passedBefore?: string[];
}

/** A comparison with the change's tests that passed before it listed as new passing tests (shown, never proof). */
export function withPassedBefore<C extends { added: string[] }>(cmp: C, wide: Widened, after: PhaseRun): C {
  const more = (wide.passedBefore ?? []).filter((n) => after.results[n] === "pass");
  return more.length ? { ...cmp, added: [...new Set([...cmp.added, ...more])].sort() } : cmp;
}

const countsOf = (results: Record<string, Outcome>, durationMs: number) => {
  const c = { passed: 0, failed: 0, errored: 0, durationMs };
  for (const o of Object.values(results))
    if (o === "pass") c.passed++;
    else if (o === "fail") c.failed++;
    else if (o === "error") c.errored++;
  return c;
};

/** The base run with `extra` (the same tree, more test files) laid over it: its results win for the names it ran. */
export function mergeBase(base: PhaseRun, extra: PhaseRun): PhaseRun {
  const results = { ...base.results, ...extra.results };
  return {
    ...base,
    results,
    counts: countsOf(results, base.counts.durationMs + extra.counts.durationMs),
    runners: [...new Set([...base.runners, ...extra.runners])],
    exitCode: base.exitCode === 0 && extra.exitCode === 0 ? 0 : (base.exitCode ?? extra.exitCode),
  };
}

/**
 * For a solve running the related tests: each change also runs the test files it writes and the
 * tests near the files it changes. Those run first on the base tree, with only the change's test
 * files applied (a new test must fail there to count as proof; one that passes before the change
 * proves nothing), and their results join the base results. Runs are shared between changes
 * with the same test files.
 */
export function widening(
  deps: TestsDeps,
  ready: Prepared,
  /** The test files near a changed file (imports or names it). */
  testsNear: (path: string) => readonly string[],
  signal: AbortSignal,
): (files: FileChange[]) => Promise<Widened> {
  const sel = ready.selector;
  const selection = ready.plan.selection;
  const seen = new Map<string, Promise<PhaseRun>>();
  return async (files) => {
    if (!sel || selection?.scope !== "related") return { base: ready.base };
    const chosen = new Set(selection.files.map((f) => f.path));
    const own = new Set(patchTestFiles(files, sel));
    // The best few of each changed file's tests: the rest ran in the related selection, or are far from it.
    const near = files.flatMap((f) =>
      testsNear(f.filename)
        .filter((p) => sel.accepts(p))
        .slice(0, NEAR_PER_FILE),
    );
    const extra = [...new Set([...own, ...near])].filter((p) => own.has(p) || !chosen.has(p)).sort();
    if (!extra.length) return { base: ready.base, ...(chosen.size ? {} : { none: true }) };
    const command = sel.command([...new Set([...chosen, ...extra])]);
    const tests = files.filter((f) => own.has(f.filename));
    const key = createHash("sha256")
      .update(JSON.stringify([extra, tests.map((f) => [f.filename, f.content])]))
      .digest("hex");
    let run = seen.get(key);
    if (!run) {
      run = runPatched(deps, ready, tests, "patched", sel.command(extra));
      seen.set(key, run);
    }
    const onBase = await run;
    signal.throwIfAborted();
    // A base run of them that could not finish is no evidence: they are compared as tests absent from the base.
    if (couldNotRun(onBase, 0) || !onBase.runners.length) return { base: ready.base, command };
    const passedBefore = own.size
      ? Object.entries(onBase.results)
          .filter(([n, o]) => o === "pass" && !(n in ready.base.results))
          .map(([n]) => n)
      : [];
    return { base: mergeBase(ready.base, onBase), command, passedBefore };
  };
}

/**
 * The evidence when the test command timed out on the base tree: said as such, with what its log
 * shows passing; the same command is not started on the change (it would time out too).
 */
export function baseTimeout(backend: SandboxBackend, ready: Prepared, timeoutMs: number): SolutionTests {
  const c = ready.base.counts;
  const seen = c.passed + c.failed + c.errored;
  const log = seen ? ` (its log shows ${c.passed} passed, ${c.failed + c.errored} failing before the limit)` : "";
  return {
    ...noTests(
      backend,
      "error",
      `timed out on the base tree after ${Math.round(timeoutMs / 1000)} s${log}; the change was not run with the same command`,
      ready.plan.command,
    ),
    base: c,
    cause: "timeout",
    logTail: ready.base.logTail.slice(-16 * 1024),
  };
}

/** The evidence of a change no repository test relates to (its reproduction test may still prove it). */
export const noneRelatedTests = (backend: SandboxBackend): SolutionTests => ({
  ...noTests(backend, "skipped", NO_RELATED_TESTS),
  noneRelated: true,
});

/** Documentation files: a change of only these has no test to run. */
const DOC_FILE =
  /\.(md|mdx|markdown|rst|txt|adoc)$|(^|\/)docs?\/|(^|\/)(README|CHANGELOG|CHANGES|AUTHORS|CONTRIBUTING|LICENSE)(\.[^/]*)?$/i;

/** Whether a change touches documentation only. */
export const docsOnly = (files: Array<{ filename: string }>): boolean =>
  files.length > 0 && files.every((f) => DOC_FILE.test(f.filename));

/** The evidence of a documentation-only change: no test applies. */
export const docsOnlyTests = (backend: SandboxBackend): SolutionTests => ({
  ...noTests(backend, "skipped", "the change touches documentation only: no test applies, the reviewer reads it"),
  docsOnly: true,
});
