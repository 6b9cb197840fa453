import { z } from "zod";
import { TestsStatus, type SolutionTests } from "./tests";

/**
 * The one vocabulary the tests panel, the step panel, the list badge and the pull request body
 * speak: what the evidence says about the code the solution carries.
 */
export type TestsVerdictKind = "passed" | "preexisting" | "regressions" | "could-not-run" | "not-run" | "stale";

export interface TestsVerdict {
  kind: TestsVerdictKind;
  /** The verdict line, e.g. "passed with pre-existing failures: parses dates". */
  text: string;
  /** The tests it names (pre-existing failures, regressions), in full. */
  names: string[];
}

/** At most `max` names, then "and N more". */
export function nameList(names: string[], max = 5): string {
  const shown = names.slice(0, max).join(", ");
  return names.length > max ? `${shown} and ${names.length - max} more` : shown;
}

function notRunReason(t: SolutionTests): string {
  if (t.backend === "off") return "sandbox off";
  if (t.command === null && !t.reason) return "no test command";
  return t.reason ?? "no reason given";
}

/** The verdict of a solution's test evidence. */
export function testsVerdict(t: SolutionTests): TestsVerdict {
  if (t.stale) return { kind: "stale", text: "not run on the edited code", names: [] };
  if (t.status === "skipped") return { kind: "not-run", text: `not run: ${notRunReason(t)}`, names: [] };
  if (t.status === "error")
    return { kind: "could-not-run", text: `could not run: ${t.reason ?? "unknown"}`, names: [] };
  const bad = t.regressions.length ? t.regressions : (t.failing ?? []);
  if (t.status === "failed") {
    const text = bad.length ? nameList(bad) : (t.reason ?? "tests fail after the patch");
    return { kind: "regressions", text: `regressions: ${text}`, names: bad };
  }
  const pre = t.preexisting ?? [];
  if (pre.length)
    return { kind: "preexisting", text: `passed with pre-existing failures: ${nameList(pre)}`, names: pre };
  const failed = (t.patched?.failed ?? 0) + (t.patched?.errored ?? 0);
  if (failed > 0)
    return { kind: "preexisting", text: `passed with pre-existing failures: ${failed} unnamed test(s)`, names: [] };
  // Passing before and after with nothing fixed shows no regression, not that the change fixes anything.
  const fixedAny = t.fixed.length > 0;
  return { kind: "passed", text: fixedAny ? "passed" : "no regression found", names: [] };
}

/** The validations list's per-solution badge: the verdict in the same words as the tests panel and the PR body. */
export const TestsSummary = z.object({
  status: TestsStatus,
  passed: z.number().int(),
  failed: z.number().int(),
  kind: z.enum(["passed", "preexisting", "regressions", "could-not-run", "not-run", "stale"]),
  verdict: z.string(),
});
export type TestsSummary = z.infer<typeof TestsSummary>;

export function summarizeTests(t: SolutionTests): TestsSummary {
  const c = t.patched ?? t.base;
  const v = testsVerdict(t);
  return {
    status: t.status,
    passed: c?.passed ?? 0,
    failed: (c?.failed ?? 0) + (c?.errored ?? 0),
    kind: v.kind,
    verdict: v.text,
  };
}

/** Whether a solution's tests never ran because the deployment's sandbox is off (SANDBOX_BACKEND=off). */
export function testsNotRunSandboxOff(t: SolutionTests | null | undefined): boolean {
  return !!t && t.backend === "off" && t.status === "skipped";
}

/** What a solution whose tests were not run says first, on its page and in its pull request. */
export const SANDBOX_OFF_STATEMENT =
  "Tests not run: this Fixloop deployment runs with its sandbox off (SANDBOX_BACKEND=off), so this change was not run against the repository's tests before or after the patch.";
