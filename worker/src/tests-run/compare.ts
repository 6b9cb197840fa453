import type { TestCounts, TestsCause, TestsStatus } from "@fixloop/contract";
import { type Dropped, MAX_RESULTS, type Outcome } from "./parse.types";
import type { SandboxLimitHit, SandboxTotals } from "./sandbox";
import { wallReason } from "./tests.limits";
import type { DiskWall } from "./workspace.wall";

/** One test run (setup + tests) in one tree. */
export interface PhaseRun {
  counts: TestCounts;
  /** Outcomes by test name: at most MAX_RESULTS of them (see `truncated`). */
  results: Record<string, Outcome>;
  /**
   * The output reported more results than are kept: `results` is not the whole run. A name absent
   * from it is not known (not "gone", not "new"), and its dropped failures still fail the run.
   */
  truncated?: Dropped;
  /** Runner formats recognised; empty = judged by exit code only. */
  runners: string[];
  exitCode: number | null;
  timedOut: boolean;
  /** The setup command failed; the tests did not run. */
  setupFailed: boolean;
  /** The run was cancelled; nothing it reported is evidence (absent in base results cached before it existed). */
  cancelled?: boolean;
  logTail: string;
  /** Requests a networked setup made that the egress proxy refused. */
  blockedHosts?: string[];
  /** What the step should say about how this phase ran (e.g. dependency changes not installed). */
  notes?: string[];
  /** A wall of the sandbox the run hit (memory, processes, disk). */
  limitHit?: SandboxLimitHit;
  /** How the sandbox's memory and processes were capped. */
  totals?: SandboxTotals;
  /** How the workspace's disk budget held: a filesystem of its size, or a poll of its usage. */
  disk?: DiskWall;
  /** Why the disk budget was only polled. */
  diskWhy?: string;
}

export interface Comparison {
  /** Failing (or erroring) on base, passing after the patch. */
  fixed: string[];
  /** Not on base at all, passing after the patch (new tests the patch brought). */
  added: string[];
  /** Passing on base; failing, erroring or gone after the patch. */
  regressions: string[];
  /** Failing (or erroring) both before and after the patch. */
  preexisting: string[];
  /** Failing after the patch and not before it (regressions and new failing tests). */
  failing: string[];
}

const bad = (o: Outcome | undefined) => o === "fail" || o === "error";
const named = (r: PhaseRun) => r.runners.length > 0 && Object.keys(r.results).length > 0;
/** A run whose exit code means something: it ran to the end. */
const finished = (r: PhaseRun) => r.exitCode !== null && !r.timedOut && !r.setupFailed && !r.cancelled;
const NONE: Comparison = { fixed: [], added: [], regressions: [], preexisting: [], failing: [] };

export function compareRuns(base: PhaseRun | null, patched: PhaseRun): Comparison {
  // A run that could not finish is no evidence: no fixed test, no regression from an absent exit code.
  // Nor is one whose toolchain is missing (exit 127, `go: not found`): its exit code says the command
  // never ran, not that a test failed before and after ("could not run", not a pre-existing failure).
  if (!base || !finished(base) || !finished(patched) || toolMissing(base) || toolMissing(patched)) return NONE;
  // Judged by exit codes only when the base run named no test. When it did, a patched run that
  // names none (it no longer compiles, or collection fails) lost every test that passed: those
  // are regressions below, not a failing exit code "as before".
  if (!named(base)) {
    const [was, is] = [base.exitCode, patched.exitCode];
    const arrow = `test command exit code ${was} → ${is}`;
    return {
      ...NONE,
      fixed: was !== 0 && is === 0 ? [arrow] : [],
      regressions: was === 0 && is !== 0 ? [arrow] : [],
      failing: was === 0 && is !== 0 ? [arrow] : [],
      preexisting: was !== 0 && is !== 0 ? [was === is ? `test command exit code ${was} before and after` : arrow] : [],
    };
  }
  const out: Comparison = { fixed: [], added: [], regressions: [], preexisting: [], failing: [] };
  for (const [name, after] of Object.entries(patched.results)) {
    const before = base.results[name];
    if (after === "pass" && bad(before)) out.fixed.push(name);
    // Absent from a truncated base run is not known there: not a test the patch added.
    else if (after === "pass" && before === undefined && !base.truncated) out.added.push(name);
    else if (bad(after) && bad(before)) out.preexisting.push(name);
    else if (bad(after)) {
      out.failing.push(name);
      if (before === "pass") out.regressions.push(name);
    }
  }
  // Failures past the patched run's result cap have no name to match against the base run: they
  // cannot be shown to have failed before, so they fail the run (never dropped into a pass).
  const unnamed = patched.truncated?.failing ?? 0;
  if (unnamed) out.failing.push(`${unnamed} failing result(s) past the first ${MAX_RESULTS} (not named)`);
  const gone = patched.truncated ? "no longer runs, or past the result cap" : "no longer runs";
  for (const [name, before] of Object.entries(base.results)) {
    if (before === "pass" && patched.results[name] === undefined) {
      out.regressions.push(`${name} (${gone})`);
      out.failing.push(`${name} (${gone})`);
    }
  }
  for (const list of Object.values(out)) list.sort();
  return out;
}

/** Shell messages naming a command that is not installed (`sh: 1: go: not found`, `bash: go: command not found`). */
const NOT_FOUND =
  /(?:^|\n)[^\n]*?\b(?:sh|bash|dash|ash|zsh)(?:: line \d+)?(?:: \d+)?: ([^\s:'"`]{1,60}): (?:command )?not found/;

/** The missing tool when a command failed because it is not installed (exit 127 or the shell said so). */
export function missingTool(exitCode: number | null, output: string): string | null {
  if (exitCode === 0 || exitCode === null) return null;
  const m = NOT_FOUND.exec(output);
  if (m?.[1]) return m[1];
  return exitCode === 127 ? "a command" : null;
}

/**
 * The tool a run lacked, when that is why it failed. A run that named its tests is judged by them:
 * a test's own output may say "…: not found" (a tool it shells out to), which is that test's
 * failure, not a missing toolchain; exit 127 still says the command itself was not found.
 */
function toolMissing(run: PhaseRun): string | null {
  if (run.timedOut || (named(run) && run.exitCode !== 127)) return null;
  return missingTool(run.exitCode, run.logTail);
}

/** Why a run could not finish, in the verdict's words; null when it finished. */
export function couldNotRun(run: PhaseRun, timeoutMs: number): { cause: TestsCause; reason: string } | null {
  if (run.cancelled) return { cause: "cancelled", reason: "cancelled" };
  // A wall of the sandbox (memory or disk); hitting the process limit alone is often survivable.
  const wall = run.limitHit === "processes" ? null : wallReason(run);
  if (wall && (run.limitHit === "disk" || run.exitCode !== 0))
    return { cause: "limit", reason: `${wall.charAt(0).toLowerCase()}${wall.slice(1)}` };
  const tool = toolMissing(run);
  if (tool) return { cause: "toolchain", reason: `${tool} not found` };
  if (run.timedOut) return { cause: "timeout", reason: `timed out after ${Math.round(timeoutMs / 1000)} s` };
  if (run.setupFailed) return { cause: "setup", reason: `setup failed (exit code ${run.exitCode ?? "none"})` };
  if (run.exitCode === null) return { cause: "no-exit", reason: "the test command ended without an exit code" };
  return null;
}

/** Passed: no regression and every test failing after the patch already failed before it (or the command exits 0). */
export function statusOf(
  base: PhaseRun | null,
  patched: PhaseRun,
  cmp: Comparison,
  timeoutMs: number,
): { status: TestsStatus; reason?: string; cause?: TestsCause } {
  const stopped = couldNotRun(patched, timeoutMs);
  if (stopped) return { status: "error", ...stopped };
  const exitOnly = named(patched) ? undefined : "unrecognised test output: judged by the exit code only";
  if (cmp.regressions.length || cmp.failing.length)
    return { status: "failed", reason: `${cmp.failing.length} test(s) fail after the patch and did not before it` };
  if (patched.exitCode === 0) return { status: "passed", ...(exitOnly ? { reason: exitOnly } : {}) };
  if (base && finished(base) && cmp.preexisting.length)
    return { status: "passed", reason: `${cmp.preexisting.length} test(s) already failed before the patch` };
  return { status: "failed", reason: `the test command exited with ${patched.exitCode}` };
}

/** Orders attempts: fewer regressions, then fewer failures, then more passes. */
export function better(a: { cmp: Comparison; run: PhaseRun }, b: { cmp: Comparison; run: PhaseRun }): boolean {
  const key = (x: typeof a) => [
    x.run.timedOut || x.run.setupFailed || x.run.cancelled || x.run.exitCode === null || x.run.limitHit === "disk"
      ? 1
      : 0,
    x.cmp.regressions.length,
    x.run.counts.failed + x.run.counts.errored + (x.run.truncated?.failing ?? 0),
    -x.run.counts.passed,
  ];
  const ka = key(a);
  const kb = key(b);
  for (let i = 0; i < ka.length; i++) if ((ka[i] ?? 0) !== (kb[i] ?? 0)) return (ka[i] ?? 0) < (kb[i] ?? 0);
  return false;
}
