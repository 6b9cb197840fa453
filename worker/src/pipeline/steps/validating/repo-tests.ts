import path from "node:path";
import {
  type FileChange,
  type StepDetail,
  type GeneratingOutput,
  type ReproductionResult,
  runCandidatesOf,
  type SolutionCandidates,
  type SolutionTests,
  type StepInput,
  type ValidatingOutput,
} from "@fixloop/contract";
import { testFilesNamedAfter } from "../../../localize/tests-near";
import type { WorkerContext } from "../../../context";
import { better, compareRuns } from "../../../tests-run/compare";
import { evidenceLines, noTests, solutionTests, weighEvidence, type Attempt } from "../../../tests-run/evidence";
import { NETWORK_NOT_GRANTED, NETWORK_REFUSED, NETWORK_UNSUPPORTED } from "../../../tests-run/detect";
import { NO_TESTS_RUN } from "../../../tests-run/plan.narrow";
import { disposePrepared, runPatched, type Prepared } from "../../../tests-run/run-tests";
import { testsConfig, testsDeps } from "../../../tests-run/tests.config";
import { limitLines, phaseLimits } from "../../../tests-run/tests.limits";
import { scrubHostPaths } from "../../../tests-run/workspace.cleanup";
import {
  baseTimeout,
  docsOnly,
  docsOnlyTests,
  noneRelatedTests,
  widening,
  withPassedBefore,
} from "../../../tests-run/widen";
import { RunCancelled } from "../../run.errors";
import type { StepEnv, StepOutcome } from "../step";
import { validating } from "./validating";
import { asGenerating, candidatePool, judgeCandidates, testCandidates } from "./candidates.judge";
import { reproduce, storedReproduction, type Reproducing } from "./reproduction.step";
import { prepareBase, takePrepared } from "./base-tree";
import { verdictOf } from "./reproduction.verdict";

type Regenerate = (extra: { feedback: string; baseline: FileChange[] }) => Promise<{ output: GeneratingOutput }>;

/** Failing output sent back to the model in the repair round. */
export const REPAIR_OUTPUT_MAX = 8 * 1024;

function repairFeedback(a: Attempt): string {
  const failing = Object.entries(a.run.results)
    .filter(([, o]) => o === "fail" || o === "error")
    .map(([n]) => n);
  const log = a.run.logTail.length > REPAIR_OUTPUT_MAX ? a.run.logTail.slice(-REPAIR_OUTPUT_MAX) : a.run.logTail;
  return [
    "The repository's tests were run on your patch and it breaks tests that passed before it.",
    a.cmp.regressions.length
      ? `Tests that passed before and fail now: ${a.cmp.regressions.slice(0, 20).join(", ")}`
      : "",
    failing.length ? `Failing tests: ${failing.slice(0, 20).join(", ")}` : "",
    `Test output (last ${Math.round(REPAIR_OUTPUT_MAX / 1024)} KiB):\n${log}`,
    "Fix the patch so these tests pass again while still resolving the issue.",
  ]
    .filter(Boolean)
    .join("\n");
}

/** Step 5: static checks, then the repository's tests before and after the patch, with one repair round on regressions. */
export async function validateWithTests(
  { analyzing: a, context: c, dependencies: d, generating: first }: StepInput<"validating">,
  i: StepEnv,
  ctx: WorkerContext,
  regenerate: Regenerate,
): Promise<StepOutcome<ValidatingOutput>> {
  const check = (g: GeneratingOutput) =>
    validating({
      files: g.filesChanged,
      existingPaths: c.allPaths,
      testsNear: d.testsNear,
      unappliedEdits: g.unappliedEdits.length,
      base: {
        links: c.links ?? [],
        limits: {
          maxFiles: ctx.env.PR_MAX_FILES,
          maxChangedLines: ctx.env.PR_MAX_CHANGED_LINES,
          maxBytes: ctx.env.PR_MAX_BYTES,
        },
      },
    });
  const cfg = testsConfig(ctx.env);
  let kept = first;
  let tokens = { tokensIn: 0, tokensOut: 0, costUsd: 0 };
  let tests: SolutionTests;
  let limits: { info: string[]; warnings: string[] } = { info: [], warnings: [] };
  let ranked: SolutionCandidates | undefined;
  // Said even when no test runs here: step 4's request and its check on the base tree are on record.
  let reproducing: Reproducing | null = first.reproduction ? storedReproduction(first.reproduction) : null;
  const reproResults = new Map<number, ReproductionResult>();
  let singleRepro: ReproductionResult | null = null;
  const staticFirst = await check(first);
  // Several distinct candidates: each is checked and tested, then ranked by evidence (no repair round).
  const pool = candidatePool(first);
  const blocked = new Set<number>();
  for (const cand of pool ?? [])
    if ((await check(asGenerating(first, cand))).output.blocked.length) blocked.add(cand.n);
  const candidateTests = new Map<number, SolutionTests>();
  const candidateRuns = new Map<number, Attempt>();
  const emitCandidate = (e: Parameters<NonNullable<StepEnv["onTestsEvent"]>>[0]) =>
    i.onTestsEvent?.(e) ?? Promise.resolve();
  if (!cfg.runner) tests = noTests(cfg.backend, "skipped", "sandbox off");
  else if (pool ? blocked.size === pool.length : staticFirst.output.blocked.length)
    tests = noTests(cfg.backend, "skipped", "the patch is blocked by policy");
  else {
    const deps = testsDeps(cfg, ctx, {
      emit: (e) => i.onTestsEvent?.(e) ?? Promise.resolve(),
      signal: i.signal,
      onCleanupError: (err) =>
        ctx.logger.warn({ runId: i.run.id, err: String(err.cause ?? err.message) }, "workspace cleanup failed"),
    });
    let prepared: Prepared | { reason: string } | null = null;
    try {
      // Step 4 prepared the base tree (to check the reproduction test) when this process ran it and it is intact.
      prepared =
        (await takePrepared(i.run.id)) ??
        (await prepareBase(deps, cfg, { analyzing: a, context: c, dependencies: d }, i, ctx));
      // A cancelled phase is no evidence: the run stops here instead of going on to the next phase.
      if (i.signal.aborted || ("base" in prepared && prepared.base.cancelled)) throw new RunCancelled();
      if ("reason" in prepared) tests = noTests(cfg.backend, "skipped", prepared.reason);
      // A detected command has no test to run for documentation; a configured one runs as asked.
      else if (!pool && docsOnly(first.filesChanged) && prepared.plan.source === "detected")
        tests = docsOnlyTests(cfg.backend);
      else {
        const timeoutMs = phaseLimits(cfg.limits, prepared.plan).timeoutMs;
        const ready = prepared;
        // A changed file step 3 did not choose (the model knew it) has the tests named after it.
        const near = (p: string) => d.testsNear[p] ?? testFilesNamedAfter(p, c.allPaths);
        const widen = widening(deps, ready, near, i.signal);
        const attempt = async (label: Attempt["label"], files: FileChange[]): Promise<Attempt> => {
          const wide = await widen(files);
          if (wide.none) return { label, run: NO_TESTS_RUN, cmp: compareRuns(null, NO_TESTS_RUN), files, none: true };
          const run = await runPatched(deps, ready, files, label === "first" ? "patched" : "repair", wide.command);
          if (i.signal.aborted || run.cancelled) throw new RunCancelled();
          const cmp = withPassedBefore(compareRuns(wide.base, run), wide, run);
          return { label, run, cmp, files, base: wide.base, command: wide.command };
        };
        // A regression command that timed out on the base tree would time out again: it is not run on the change.
        const baseTimedOut = ready.base.timedOut ? baseTimeout(cfg.backend, ready, timeoutMs) : null;
        const planNotes = [
          ...(prepared.plan.networkNotGranted ? [NETWORK_NOT_GRANTED] : []),
          ...(prepared.plan.networkRefused ? [NETWORK_REFUSED] : []),
          ...(prepared.plan.networkUnsupported ? [NETWORK_UNSUPPORTED] : []),
        ];
        // Step 4 asked the reproduction test before generating; a run stored before it did asks it here, before any candidate is tested.
        const repro = first.reproduction
          ? storedReproduction(first.reproduction, deps, ready, timeoutMs)
          : await reproduce({ analyzing: a, context: c, dependencies: d }, i, ctx, deps, ready, timeoutMs);
        reproducing = repro;
        tokens = repro.cost;
        if (baseTimedOut) {
          tests = baseTimedOut;
          const scored = await testCandidates(pool ?? [], blocked, emitCandidate, async (files) => ({
            attempt: null,
            tests: baseTimedOut,
            reproduction: await repro.score(files),
          }));
          for (const [n, r] of scored) {
            candidateTests.set(n, r.tests);
            if (r.reproduction) reproResults.set(n, r.reproduction);
          }
          if (!pool) singleRepro = await repro.score(first.filesChanged);
          limits = limitLines(prepared.plan, cfg.limits, prepared.base);
        } else {
          // Candidates run one after another, sharing the base tree's results; the page shows each one's row.
          const tested = await testCandidates(pool ?? [], blocked, emitCandidate, async (files) => {
            const at = await attempt("first", files);
            const t = at.none
              ? noneRelatedTests(cfg.backend)
              : solutionTests(
                  cfg.backend,
                  at.command ?? ready.plan.command,
                  ready.base,
                  [at],
                  at,
                  timeoutMs,
                  planNotes,
                );
            return { attempt: at, tests: t, reproduction: await repro.score(files) };
          });
          for (const [n, r] of tested) {
            candidateRuns.set(n, r.attempt);
            candidateTests.set(n, r.tests);
            if (r.reproduction) reproResults.set(n, r.reproduction);
          }
          const attempts = pool ? [] : [await attempt("first", first.filesChanged)];
          let best = (attempts[0] ?? candidateRuns.values().next().value) as Attempt | undefined;
          if (
            best &&
            !pool &&
            !i.signal.aborted &&
            (best.cmp.regressions.length ||
              (best.run.exitCode !== 0 && !best.run.timedOut && !best.run.setupFailed && prepared.base.exitCode === 0))
          ) {
            const repaired = await regenerate({ feedback: repairFeedback(best), baseline: first.filesChanged }).catch(
              (err: unknown) => {
                if (i.signal.aborted) throw new RunCancelled();
                ctx.logger.warn({ runId: i.run.id, err: (err as Error).message }, "test repair generation failed");
                return null;
              },
            );
            if (repaired) {
              const g = repaired.output;
              tokens = {
                tokensIn: tokens.tokensIn + g.tokensIn,
                tokensOut: tokens.tokensOut + g.tokensOut,
                costUsd: tokens.costUsd + g.costUsd,
              };
              const second = await attempt("repair", g.filesChanged);
              attempts.push(second);
              if (better(second, best)) {
                best = second;
                kept = g;
              }
            }
          }
          if (pool) {
            ranked = await judgeCandidates(
              pool,
              runCandidatesOf(i.run.input),
              blocked,
              candidateTests,
              emitCandidate,
              reproResults,
            );
            best = candidateRuns.get(ranked.winner);
          } else if (best) singleRepro = await repro.score(best.files);
          tests = !best
            ? noTests(cfg.backend, "skipped", "the patch is blocked by policy")
            : pool
              ? (candidateTests.get(ranked?.winner ?? 0) ??
                noTests(cfg.backend, "skipped", "the patch is blocked by policy"))
              : best.none
                ? noneRelatedTests(cfg.backend)
                : solutionTests(
                    cfg.backend,
                    best.command ?? prepared.plan.command,
                    prepared.base,
                    attempts,
                    best,
                    timeoutMs,
                    planNotes,
                  );
          if (prepared.plan.networkNotGranted) tests = { ...tests, networkWanted: true };
          limits = limitLines(prepared.plan, cfg.limits, best?.run.totals ? best.run : prepared.base);
        }
      }
    } catch (err) {
      if (i.signal.aborted || err instanceof RunCancelled) throw new RunCancelled();

      const message = scrubHostPaths((err as Error).message, [cfg.cache.root, path.resolve(ctx.env.FIXLOOP_DATA_DIR)]);
      ctx.logger.warn({ runId: i.run.id, err: (err as Error).message }, "test run failed");
      tests = { ...noTests(cfg.backend, "error", message), cause: "workspace" };
    } finally {
      if (prepared && !("reason" in prepared)) await disposePrepared(prepared, deps.onCleanupError);
    }
    const selection = prepared && "plan" in prepared ? prepared.plan.selection : undefined;
    if (selection && tests.command) tests = { ...tests, selection };
    if (!pool && docsOnly(first.filesChanged)) tests = { ...tests, docsOnly: true };
  }
  if (pool) {
    ranked ??= await judgeCandidates(
      pool,
      runCandidatesOf(i.run.input),
      blocked,
      candidateTests,
      emitCandidate,
      reproResults,
    );
    const win = pool.find((c) => c.n === ranked?.winner);
    if (win) kept = asGenerating(first, win);
  }
  const checked = kept === first ? staticFirst : await check(kept);
  const weighed = weighEvidence(checked.output, kept.confidence, tests);
  const lines = evidenceLines(tests);
  const verdict = verdictOf(reproducing, ranked, tests, checked.output.blocked.length > 0, singleRepro);
  const detail: StepDetail = {
    ...checked.detail,
    info: [
      ...checked.detail.info,
      ...(ranked ? [ranked.reason, ...ranked.candidates.map((c) => `Candidate ${c.n}: ${c.rankReason}`)] : []),
      ...lines.info,
      ...verdict.info,
      ...limits.info,
    ],
    warnings: [...checked.detail.warnings, ...lines.warnings, ...verdict.warnings, ...limits.warnings],
    tests,
  };
  const output: ValidatingOutput = {
    ...weighed.validation,
    tests,
    confidence: weighed.confidence,
    ...(kept !== first ? { generating: kept } : {}),
    ...(ranked ? { candidates: ranked } : {}),
    ...(verdict.reproduction ? { reproduction: verdict.reproduction } : {}),
    ...(verdict.unverified ? { unverified: verdict.unverified } : {}),
  };
  return { output, detail, ...tokens };
}
