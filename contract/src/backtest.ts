import { z } from "zod";
import type { ErrorBody } from "./pipeline";

/** Past issues one backtest checks: at most this many, this many unless asked otherwise. */
export const BACKTEST_MAX_ISSUES = 20;
export const BACKTEST_DEFAULT_ISSUES = 10;
/** The rank a fixing file must reach to count as found "in the top 5". */
export const BACKTEST_TOP = 5;

/** How a backtest's solve run left running ends with its backtest (finished, failed, timed out, given up, its repository gone). */
export const BACKTEST_ENDED: ErrorBody = {
  code: "backtest.ended",
  message: "The backtest ended before this solve finished",
};

/** How a solve run another backtest left running (it stopped without ending it) ends when a new backtest solves its issue. */
export const BACKTEST_INTERRUPTED: ErrorBody = { code: "backtest.interrupted", message: "The backtest stopped" };

export const BACKTEST_STATUSES = ["queued", "running", "done", "failed"] as const;
export type BacktestStatus = (typeof BACKTEST_STATUSES)[number];

/**
 * What the user asks for: how many recently closed issues to check and, on request, a full solve
 * of each (with `modelId`, else the server's default model; metered and capped like any run) whose
 * patch is checked against the merged pull request's own tests.
 */
export const StartBacktest = z.object({
  issues: z.number().int().min(1).max(BACKTEST_MAX_ISSUES).default(BACKTEST_DEFAULT_ISSUES),
  solve: z.boolean().default(false),
  modelId: z.string().trim().min(1).max(100).optional(),
});
export type StartBacktest = z.infer<typeof StartBacktest>;

/**
 * Why a solve is not verified, as SWE-bench judges it: the pull request's own tests did not fail at
 * its base commit (nothing to fix), they still fail with the solve's patch, the tests could not run
 * (no test files, no test command, the sandbox off or failing), or the solve itself did not run
 * (a cap or the quota refused it, the model failed).
 */
export const BACKTEST_UNVERIFIED = ["not_failing_before", "still_failing", "could_not_run", "not_solved"] as const;
export type BacktestUnverified = (typeof BACKTEST_UNVERIFIED)[number];

/** A past issue's full solve and its check against the merged pull request's tests. */
export const BacktestSolve = z.object({
  /** The solve's run (its ledger rows); null when no run was started. */
  runId: z.string().nullable(),
  verified: z.boolean(),
  reason: z.enum(BACKTEST_UNVERIFIED).nullable(),
  /** What happened, in words (which tests, which cap). */
  detail: z.string(),
  /** What the solve's model requests cost, from the ledger. */
  costUsd: z.number().nonnegative(),
  /**
   * The repository's `.fixloop.yml` asked for network during setup and nobody granted it, so the
   * solve's tests were set up offline (as a solve's tests say with `networkWanted`).
   */
  networkNotGranted: z.boolean().default(false),
});
export type BacktestSolve = z.infer<typeof BacktestSolve>;

/** One past issue checked: the merged pull request that fixed it and where localization ranked its files. */
export const BacktestIssue = z.object({
  issueNumber: z.number().int().positive(),
  title: z.string(),
  pullNumber: z.number().int().positive(),
  baseSha: z.string(),
  /** The source files the pull request changed (its test files are the pull request's own tests). */
  fixFiles: z.array(z.string()),
  testFiles: z.array(z.string()),
  /** Localization's top files at the base commit, best first. */
  ranked: z.array(z.string()),
  /** 1-based rank of the best-ranked fixing file, null when none is in `ranked`. */
  rank: z.number().int().positive().nullable(),
  /** Why this issue could not be checked (the base commit is gone, say); null when it was. */
  error: z.string().nullable().default(null),
  /** The full solve, when the backtest was asked to solve. */
  solve: BacktestSolve.nullable().default(null),
});
export type BacktestIssue = z.infer<typeof BacktestIssue>;

/** The repository's trust card: the latest finished backtest, and the one running now if any. */
export const TrustCard = z.object({
  id: z.string(),
  status: z.enum(BACKTEST_STATUSES),
  requested: z.number().int(),
  /** Past issues found so far (the denominator once done) and how many of them were localized. */
  found: z.number().int(),
  checked: z.number().int(),
  foundAt1: z.number().int(),
  foundAt5: z.number().int(),
  /** Whether full solves were requested; then how many ran, how many were verified and their total cost. */
  solve: z.boolean(),
  solved: z.number().int(),
  solvesVerified: z.number().int(),
  solveCostUsd: z.number(),
  error: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  issues: z.array(BacktestIssue),
});
export type TrustCard = z.infer<typeof TrustCard>;

/** The rank of the best fixing file among `ranked` (1-based), or null. */
export function fixRank(ranked: string[], fixFiles: string[]): number | null {
  const wanted = new Set(fixFiles);
  const at = ranked.findIndex((p) => wanted.has(p));
  return at < 0 ? null : at + 1;
}

/** The solve figures of a card, from its issues: solves that ran (a model answered), verified ones, their cost. */
export function solveFigures(issues: BacktestIssue[]): {
  solved: number;
  solvesVerified: number;
  solveCostUsd: number;
} {
  const ran = issues.flatMap((i) => (i.solve && i.solve.runId !== null ? [i.solve] : []));
  return {
    solved: ran.length,
    solvesVerified: ran.filter((s) => s.verified).length,
    solveCostUsd: Math.round(ran.reduce((n, s) => n + s.costUsd, 0) * 1e6) / 1e6,
  };
}
