import { riskLevelFromScore } from "@fixloop/db/domain";
import type { SandboxBackend, SolutionTests, TestsAttempt } from "../contract";
import type { ChangeValidation } from "../pipeline/validation/validate-change";
import { statusOf, type Comparison, type PhaseRun } from "./compare";
import { wallReason } from "./tests.limits";

export interface Attempt {
  label: "first" | "repair";
  run: PhaseRun;
  cmp: Comparison;
}

/** Log tail stored with the solution. */
const LOG_TAIL_MAX = 16 * 1024;
const tailOf = (s: string) => (s.length > LOG_TAIL_MAX ? s.slice(-LOG_TAIL_MAX) : s);

export function noTests(
  backend: SandboxBackend,
  status: "skipped" | "error",
  reason: string,
  command: string | null = null,
): SolutionTests {
  return {
    command,
    backend,
    base: null,
    patched: null,
    fixed: [],
    regressions: [],
    logTail: "",
    status,
    reason,
    attempts: [],
  };
}

const attemptOf = (a: Attempt): TestsAttempt => ({
  label: a.label,
  patched: a.run.counts,
  fixed: a.cmp.fixed,
  regressions: a.cmp.regressions,
  added: a.cmp.added,
});

export function solutionTests(
  backend: SandboxBackend,
  command: string,
  base: PhaseRun,
  attempts: Attempt[],
  kept: Attempt,
  timeoutMs: number,
  planNotes: string[] = [],
): SolutionTests {
  const blockedHosts = [...new Set([base, ...attempts.map((a) => a.run)].flatMap((r) => r.blockedHosts ?? []))];
  const notes = [...planNotes, ...(kept.run.notes ?? [])];
  const s = statusOf(base, kept.run, kept.cmp, timeoutMs);
  const wall = base.limitHit === "processes" ? null : wallReason(base);
  const baseNote = base.timedOut
    ? "the base run timed out"
    : wall
      ? `on the base tree, ${wall.charAt(0).toLowerCase()}${wall.slice(1)}`
      : base.setupFailed
        ? "setup failed on the base tree"
        : null;
  const reason = [s.reason, baseNote && `Note: ${baseNote}`].filter(Boolean).join(". ") || undefined;
  return {
    command,
    backend,
    base: base.counts,
    patched: kept.run.counts,
    fixed: kept.cmp.fixed,
    regressions: kept.cmp.regressions,
    added: kept.cmp.added,
    logTail: tailOf(kept.run.logTail),
    status: s.status,
    ...(reason ? { reason } : {}),
    attempts: attempts.map(attemptOf),
    kept: kept.label,
    ...(blockedHosts.length ? { blockedHosts } : {}),
    ...(notes.length ? { notes } : {}),
  };
}

/**
 * How test evidence moves risk and confidence:
 * - regressions: risk +15, +5 per regression up to five; confidence -25;
 * - other failures after the patch (no regression): risk +10; confidence -15;
 * - tests could not run (error): risk +5; confidence -5;
 * - all good and at least one test fixed (or added): risk -10; confidence +10;
 *   all good without a test that proves the fix: confidence +3;
 * - skipped: unchanged (no evidence either way).
 * Scores stay within 0..100; a blocked (critical) change stays critical.
 */
export function weighEvidence(
  v: ChangeValidation,
  confidence: number,
  t: SolutionTests,
): { validation: ChangeValidation; confidence: number } {
  let risk = 0;
  let conf = 0;
  const proved = t.fixed.length + (t.added?.length ?? 0) > 0;
  if (t.status === "failed" && t.regressions.length) {
    risk = 15 + 5 * Math.min(5, t.regressions.length);
    conf = -25;
  } else if (t.status === "failed") {
    risk = 10;
    conf = -15;
  } else if (t.status === "error") {
    risk = 5;
    conf = -5;
  } else if (t.status === "passed") {
    risk = proved ? -10 : 0;
    conf = proved ? 10 : 3;
  }
  const riskScore = Math.max(0, Math.min(100, v.riskScore + risk));
  const critical = v.validation.riskLevel === "critical";
  return {
    validation: {
      ...v,
      riskScore,
      validation: { ...v.validation, riskLevel: critical ? "critical" : riskLevelFromScore(riskScore) },
    },
    confidence: Math.max(0, Math.min(100, confidence + conf)),
  };
}

/** Step detail lines for the evidence. */
export function evidenceLines(t: SolutionTests): { info: string[]; warnings: string[] } {
  const c = (x: SolutionTests["base"]) =>
    x ? `${x.passed} passed, ${x.failed} failed, ${x.errored} errored` : "not run";
  const info = t.command
    ? [`Tests (${t.backend}): \`${t.command}\``, `Before the patch: ${c(t.base)}`, `After the patch: ${c(t.patched)}`]
    : [];
  if (t.fixed.length)
    info.push(`Fixed: ${t.fixed.slice(0, 5).join(", ")}${t.fixed.length > 5 ? ` and ${t.fixed.length - 5} more` : ""}`);
  if (t.added?.length)
    info.push(
      `New passing tests: ${t.added.slice(0, 5).join(", ")}${t.added.length > 5 ? ` and ${t.added.length - 5} more` : ""}`,
    );
  if (t.attempts.length > 1)
    info.push(`A repair round ran; the ${t.kept === "repair" ? "repaired" : "first"} attempt was kept`);
  const warnings: string[] = [];
  if (t.regressions.length)
    warnings.push(
      `Regressions: ${t.regressions.slice(0, 5).join(", ")}${t.regressions.length > 5 ? ` and ${t.regressions.length - 5} more` : ""}`,
    );
  if (t.blockedHosts?.length)
    warnings.push(
      `Setup's network requests refused by the sandbox: ${t.blockedHosts.slice(0, 10).join(", ")}${t.blockedHosts.length > 10 ? ` and ${t.blockedHosts.length - 10} more` : ""}`,
    );
  warnings.push(...(t.notes ?? []));
  if (t.status === "skipped" || t.status === "error") warnings.push(`Tests ${t.status}: ${t.reason ?? ""}`.trim());
  else if (t.reason) (t.status === "failed" ? warnings : info).push(t.reason);
  return { info, warnings };
}
