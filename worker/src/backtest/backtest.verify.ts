import path from "node:path";
import { repositories } from "@fixloop/db";
import type { BacktestUnverified, FileChange } from "@fixloop/contract";
import type { GithubClient } from "@fixloop/runtime";
import type { WorkerContext } from "../context";
import type { PhaseRun } from "../tests-run/compare";
import { trustedRepository } from "../tests-run/detect";
import { disposePrepared, prepareTests, runPatched, type Prepared } from "../tests-run/run-tests";
import { testsConfig, testsDeps } from "../tests-run/tests.config";
import { scrubHostPaths } from "../tests-run/workspace.cleanup";
import { fetchTreeInto } from "../tests-run/workspace.github";

/** A merged pull request as its tests see it: its base commit, its own test files and its whole change. */
export interface PullUnderTest {
  owner: string;
  repo: string;
  userId: string;
  baseSha: string;
  /** The pull request's test files at its head (added to the tree before and after). */
  tests: FileChange[];
  /** Everything the pull request changed at its head (its "gold" patch), tests included. */
  gold: FileChange[];
}

export interface Verdict {
  verified: boolean;
  reason: BacktestUnverified | null;
  detail: string;
}

const failing = (r: PhaseRun) =>
  new Set(
    Object.entries(r.results)
      .filter(([, o]) => o === "fail" || o === "error")
      .map(([n]) => n),
  );
const passing = (r: PhaseRun) =>
  new Set(
    Object.entries(r.results)
      .filter(([, o]) => o === "pass")
      .map(([n]) => n),
  );
const unfinished = (r: PhaseRun) => r.timedOut || r.setupFailed || !!r.cancelled;
/** How a run ended, with the last line it printed (`exit code 127: sh: 1: go: not found`). */
const said = (r: PhaseRun) => {
  const last = r.logTail.trim().split("\n").at(-1)?.trim().slice(0, 200);
  return ` (exit code ${r.exitCode ?? "none"}${last ? `: ${last}` : ""})`;
};
/** Test names come from the repository: a few, each cut short, are enough to say which. */
const NAME_MAX = 100;
const names = (xs: string[]) =>
  xs
    .slice(0, 5)
    .map((n) => `"${n.length > NAME_MAX ? `${n.slice(0, NAME_MAX - 1)}…` : n}"`)
    .join(", ") + (xs.length > 5 ? `, and ${xs.length - 5} more` : "");

/**
 * Judges a solve's patch as SWE-bench does, in the sandbox, offline, with the repository's test
 * command: at the pull request's base commit with its test files added, the tests the pull request
 * fixed (failing there, passing with its own change) must fail; with the solve's patch and those
 * test files they must pass, and the tests that passed with both must still pass.
 */
export function judge(before: PhaseRun, gold: PhaseRun, candidate: PhaseRun): Verdict {
  const goldPass = passing(gold);
  const target = [...failing(before)].filter((n) => goldPass.has(n));
  if (!target.length)
    return {
      verified: false,
      reason: "not_failing_before",
      detail: "The pull request's tests did not fail at its base commit: there was nothing to verify",
    };
  const after = passing(candidate);
  const still = target.filter((n) => !after.has(n));
  const kept = [...passing(before)].filter((n) => goldPass.has(n));
  const broken = kept.filter((n) => !after.has(n));
  if (still.length || broken.length)
    return {
      verified: false,
      reason: "still_failing",
      detail: still.length
        ? `Still failing with the solve's patch: ${names(still)}`
        : `The solve's patch breaks tests that pass with the pull request: ${names(broken)}`,
    };
  return {
    verified: true,
    reason: null,
    detail: `The pull request's failing tests pass with the solve's patch: ${names(target)}`,
  };
}

const cannot = (detail: string): Verdict => ({ verified: false, reason: "could_not_run", detail });

/**
 * The same judgement by exit codes, for a test runner whose output names no tests: the command
 * fails at the base commit with the pull request's tests, passes with its change, and must pass
 * with the solve's patch.
 */
export function judgeByExit(before: PhaseRun, gold: PhaseRun, candidate: PhaseRun): Verdict {
  if (gold.exitCode !== 0) return cannot(`The tests do not pass with the pull request's own change${said(gold)}`);
  if (before.exitCode === 0)
    return {
      verified: false,
      reason: "not_failing_before",
      detail: "The pull request's tests did not fail at its base commit: there was nothing to verify",
    };
  if (candidate.exitCode !== 0 || unfinished(candidate))
    return {
      verified: false,
      reason: "still_failing",
      detail: `The tests still fail with the solve's patch${said(candidate)}`,
    };
  return {
    verified: true,
    reason: null,
    detail: "The tests fail at the base commit with the pull request's tests and pass with the solve's patch",
  };
}

/** Runs the three phases (base + tests, base + the pull request, base + the solve's patch + tests) and judges them. */
export async function verifyAgainstPull(
  ctx: WorkerContext,
  gh: GithubClient,
  p: PullUnderTest,
  patch: FileChange[],
  signal: AbortSignal,
): Promise<Verdict> {
  if (!p.tests.length) return cannot("The pull request changed no test files");
  const cfg = testsConfig(ctx.env);
  if (!cfg.runner) return cannot("The sandbox is off on this server");
  const deps = testsDeps(cfg, ctx, {
    emit: async () => {},
    signal,
    onCleanupError: (err) => ctx.logger.warn({ err: String(err.cause ?? err.message) }, "workspace cleanup failed"),
  });
  const full = `${p.owner}/${p.repo}`;
  let prepared: Prepared | { reason: string } | null = null;
  try {
    const row = await repositories.findFirstWithTestSettings(ctx.db, p.userId, [full]);
    prepared = await prepareTests(deps, {
      owner: p.owner,
      repo: p.repo,
      commit: p.baseSha,
      settings: row?.testSettings ?? null,
      trusted: trustedRepository(full, row),
      setupNetwork: "never",
      fetch: (dir) =>
        fetchTreeInto(gh, p.owner, p.repo, p.baseSha, dir, { maxBytes: cfg.maxRepoBytes, signal }).then(
          () => undefined,
        ),
    });
    if ("reason" in prepared) return cannot(prepared.reason);
    const ready = prepared;
    const testPaths = new Set(p.tests.map((f) => f.filename));
    const before = await runPatched(deps, ready, p.tests, "patched");
    const gold = await runPatched(deps, ready, p.gold, "patched");
    // The pull request's test files win over anything the patch wrote at their paths.
    const withPatch = [...patch.filter((f) => !testPaths.has(f.filename)), ...p.tests];
    const candidate = await runPatched(deps, ready, withPatch, "patched");
    signal.throwIfAborted();
    const bad = [before, gold].find(unfinished);
    if (bad) return cannot(`The tests did not run to the end${said(bad)}`);
    if (!before.runners.length || !gold.runners.length) return judgeByExit(before, gold, candidate);
    if (unfinished(candidate))
      return {
        verified: false,
        reason: "still_failing",
        detail: `The tests did not run to the end with the solve's patch${said(candidate)}`,
      };
    return judge(before, gold, candidate);
  } catch (err) {
    if (signal.aborted) throw err;
    const message = scrubHostPaths((err as Error).message, [cfg.cache.root, path.resolve(ctx.env.FIXLOOP_DATA_DIR)]);
    return cannot(`The tests could not run: ${message}`);
  } finally {
    if (prepared && !("reason" in prepared)) await disposePrepared(prepared, deps.onCleanupError);
  }
}
