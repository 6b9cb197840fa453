import {
  riskLevelFromScore,
  type FileChange,
  nameList,
  testsVerdict,
  type SandboxBackend,
  type SolutionTests,
  type TestsAttempt,
} from "@fixloop/contract";
import type { ChangeValidation } from "../pipeline/steps/validating/validate-change";
import { couldNotRun, statusOf, type Comparison, type PhaseRun } from "./compare";

export interface Attempt {
  label: "first" | "repair";
  run: PhaseRun;
  cmp: Comparison;
  files: FileChange[];
  /** The base results it was compared with, when wider than the plan's (its own tests run on the base tree). */
  base?: PhaseRun;
  /** Its command, when wider than the plan's. */
  command?: string;
  /** No test relates to it and it writes none: nothing ran. */
  none?: boolean;
}

/** Size of a replaced attempt's files kept with the evidence (its diff is offered on the page). */
const ATTEMPT_FILES_MAX = 256 * 1024;

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

function attemptOf(a: Attempt, kept: Attempt): TestsAttempt {
  const size = a.files.reduce((n, f) => n + f.content.length + f.originalContent.length, 0);
  const files = a !== kept && size <= ATTEMPT_FILES_MAX ? a.files : undefined;
  return {
    label: a.label,
    patched: a.run.counts,
    fixed: a.cmp.fixed,
    regressions: a.cmp.regressions,
    added: a.cmp.added,
    ...(files
      ? {
          files: files.map(({ filename, action, content, originalContent }) => ({
            filename,
            action,
            content,
            originalContent,
          })),
        }
      : {}),
  };
}

export function solutionTests(
  backend: SandboxBackend,
  command: string,
  base: PhaseRun,
  attempts: Attempt[],
  kept: Attempt,
  timeoutMs: number,
  planNotes: string[] = [],
): SolutionTests {
  // The kept attempt's own tests ran on the base tree too: its comparison's base is the one shown.
  base = kept.base ?? base;
  const blockedHosts = [...new Set([base, ...attempts.map((a) => a.run)].flatMap((r) => r.blockedHosts ?? []))];
  const notes = [...planNotes, ...(kept.run.notes ?? [])];
  const s = statusOf(base, kept.run, kept.cmp, timeoutMs);
  const baseStopped = couldNotRun(base, timeoutMs);
  const baseNote = baseStopped && `on the base tree: ${baseStopped.reason}`;
  const reason = [s.reason, s.status !== "error" && baseNote].filter(Boolean).join("; ") || undefined;
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
    ...(s.cause ? { cause: s.cause } : {}),
    preexisting: kept.cmp.preexisting,
    failing: kept.cmp.failing,
    attempts: attempts.map((a) => attemptOf(a, kept)),
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
  // A new test (absent from the base tree) could not fail there: only fixed tests prove the change.
  const proved = t.fixed.length > 0;
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
  const verdict = testsVerdict(t);
  const info = [`Tests: ${verdict.text}`];
  if (t.command)
    info.push(
      `Command (${t.backend}): \`${t.command}\``,
      `Before the patch: ${c(t.base)}`,
      `After the patch: ${c(t.patched)}`,
    );
  if (t.selection) {
    const shown = t.selection.files.slice(0, 12).map((f) => `${f.path} (${f.why})`);
    info.push(`${t.selection.note}${shown.length ? `: ${shown.join(", ")}` : ""}`);
  }
  if (t.fixed.length)
    info.push(`Fixed: ${t.fixed.slice(0, 5).join(", ")}${t.fixed.length > 5 ? ` and ${t.fixed.length - 5} more` : ""}`);
  if (t.added?.length)
    info.push(
      `New tests passing (they pass before the change too, or could not run there: no proof of the fix): ${t.added.slice(0, 5).join(", ")}${t.added.length > 5 ? ` and ${t.added.length - 5} more` : ""}`,
    );
  const first = t.attempts[0];
  if (t.attempts.length > 1 && first)
    info.push(
      `A repair round ran after the first attempt's regressions (${nameList(first.regressions) || "test command failed"}); the ${t.kept === "repair" ? "repaired" : "first"} attempt was kept`,
    );
  const warnings: string[] = [];
  if (t.blockedHosts?.length)
    warnings.push(`Setup's network requests refused by the sandbox or unreachable: ${nameList(t.blockedHosts, 10)}`);
  warnings.push(...(t.notes ?? []));
  // The verdict line leads the step's detail; a verdict against the change is a warning.
  if (verdict.kind !== "regressions" && verdict.kind !== "could-not-run") return { info, warnings };
  return { info: info.slice(1), warnings: [info[0] as string, ...warnings] };
}
