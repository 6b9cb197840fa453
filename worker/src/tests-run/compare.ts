import type { TestCounts, TestsStatus } from "../contract";
import type { Outcome } from "./parse";
import type { SandboxLimitHit, SandboxTotals } from "./sandbox";
import { wallReason } from "./tests.limits";

/** One test run (setup + tests) in one tree. */
export interface PhaseRun {
  counts: TestCounts;
  results: Record<string, Outcome>;
  /** Runner formats recognised; empty = judged by exit code only. */
  runners: string[];
  exitCode: number | null;
  timedOut: boolean;
  /** The setup command failed; the tests did not run. */
  setupFailed: boolean;
  logTail: string;
  /** Requests a networked setup made that the egress proxy refused. */
  blockedHosts?: string[];
  /** What the step should say about how this phase ran (e.g. dependency changes not installed). */
  notes?: string[];
  /** A wall of the sandbox the run hit (memory, processes, disk). */
  limitHit?: SandboxLimitHit;
  /** How the sandbox's memory and processes were capped. */
  totals?: SandboxTotals;
}

export interface Comparison {
  /** Failing (or erroring) on base, passing after the patch. */
  fixed: string[];
  /** Not on base at all, passing after the patch (new tests the patch brought). */
  added: string[];
  /** Passing on base; failing, erroring or gone after the patch. */
  regressions: string[];
}

const bad = (o: Outcome | undefined) => o === "fail" || o === "error";
const named = (r: PhaseRun) => r.runners.length > 0 && Object.keys(r.results).length > 0;

export function compareRuns(base: PhaseRun | null, patched: PhaseRun): Comparison {
  if (!base) return { fixed: [], added: [], regressions: [] };
  if (!named(base) || !named(patched)) {
    const was = base.exitCode === 0;
    const is = patched.exitCode === 0;
    return {
      fixed: !was && is && !base.timedOut ? [`test command (exit code ${base.exitCode} before, 0 after)`] : [],
      added: [],
      regressions:
        was && !is
          ? [`test command (exit code 0 before, ${patched.exitCode ?? (patched.timedOut ? "timeout" : "none")} after)`]
          : [],
    };
  }
  const fixed: string[] = [];
  const added: string[] = [];
  const regressions: string[] = [];
  for (const [name, after] of Object.entries(patched.results)) {
    const before = base.results[name];
    if (after === "pass" && bad(before)) fixed.push(name);
    else if (after === "pass" && before === undefined) added.push(name);
    else if (bad(after) && before === "pass") regressions.push(name);
  }
  for (const [name, before] of Object.entries(base.results)) {
    if (before === "pass" && patched.results[name] === undefined) regressions.push(`${name} (no longer runs)`);
  }
  return { fixed: fixed.sort(), added: added.sort(), regressions: regressions.sort() };
}

/** Passed: no regression and every test failing after the patch already failed before it (or the command exits 0). */
export function statusOf(
  base: PhaseRun | null,
  patched: PhaseRun,
  cmp: Comparison,
  timeoutMs: number,
): { status: TestsStatus; reason?: string } {
  const wall = patched.limitHit === "processes" ? null : wallReason(patched);
  if (wall && (patched.limitHit === "disk" || patched.exitCode !== 0)) return { status: "error", reason: wall };
  if (patched.setupFailed)
    return { status: "error", reason: `The setup command failed (exit code ${patched.exitCode ?? "none"})` };
  if (patched.timedOut)
    return {
      status: "error",
      reason: `The tests did not finish within ${Math.round(timeoutMs / 1000)} s and were stopped`,
    };
  const exitOnly = named(patched) ? undefined : "Unrecognised test output: judged by the exit code only";
  if (cmp.regressions.length)
    return { status: "failed", reason: `${cmp.regressions.length} test(s) that passed before the patch fail after it` };
  if (patched.exitCode === 0) return { status: "passed", ...(exitOnly ? { reason: exitOnly } : {}) };
  if (!exitOnly && base) {
    const failing = Object.entries(patched.results)
      .filter(([, o]) => bad(o))
      .map(([n]) => n);
    if (failing.every((n) => bad(base.results[n])))
      return { status: "passed", reason: `${failing.length} test(s) already failed before the patch` };
    return {
      status: "failed",
      reason: `${failing.filter((n) => !bad(base.results[n])).length} new failing test(s) after the patch`,
    };
  }
  return {
    status: "failed",
    reason: exitOnly
      ? `${exitOnly}; the test command exited with ${patched.exitCode ?? "no code"}`
      : `The test command exited with ${patched.exitCode ?? "no code"}`,
  };
}

/** Orders attempts: fewer regressions, then fewer failures, then more passes. */
export function better(a: { cmp: Comparison; run: PhaseRun }, b: { cmp: Comparison; run: PhaseRun }): boolean {
  const key = (x: typeof a) => [
    x.run.timedOut || x.run.setupFailed || x.run.limitHit === "disk" ? 1 : 0,
    x.cmp.regressions.length,
    x.run.counts.failed + x.run.counts.errored,
    -x.run.counts.passed,
  ];
  const ka = key(a);
  const kb = key(b);
  for (let i = 0; i < ka.length; i++) if ((ka[i] ?? 0) !== (kb[i] ?? 0)) return (ka[i] ?? 0) < (kb[i] ?? 0);
  return false;
}
