import { backtestSolves, ClaimLost, issues, runs, users } from "@fixloop/db";
import { DEFAULT_MODEL_ID, type BacktestSolve, type FileChange } from "@fixloop/contract";
import type { GithubClient } from "@fixloop/runtime";
import type { WorkerContext } from "../context";
import { CostCapExceeded, ledgerMeter } from "../pipeline/run.budget";
import { generatingStep } from "../pipeline/steps/generating/generating.step";
import { validatingStep } from "../pipeline/steps/validating/validating.step";
import { filesAt, type FixedIssue } from "./backtest.github";
import type { LocalizedAt } from "./backtest.localize";
import { verifyAgainstPull } from "./backtest.verify";

/** The backtest a solve belongs to, as the worker read it. */
export interface SolvingBacktest {
  id: string;
  user_id: string;
  repository_id: string;
  model_id: string | null;
  owner: string;
  name: string;
  full_name: string;
}

/** A reason stays a sentence on the card (provider and sandbox messages can be long). */
const DETAIL_MAX = 400;
const clip = (s: string) => (s.length > DETAIL_MAX ? `${s.slice(0, DETAIL_MAX - 1)}…` : s);

const notSolved = (runId: string | null, detail: string, costUsd = 0): BacktestSolve => ({
  runId,
  verified: false,
  reason: "not_solved",
  detail: clip(detail),
  costUsd,
  networkNotGranted: false,
});

/**
 * Solves one past issue at its pull request's base commit (the pipeline's steps 4 and 5 on what
 * localization found there) and checks the selected candidate against the pull request's own tests. The solve is a `backtest` run: its quota unit and every model request go
 * through the same quota, caps and ledger as any run (a refusal is said, not raised); it writes
 * no solution, opens no pull request and leaves the issue as it is.
 */
export async function solvePast(
  ctx: WorkerContext,
  gh: GithubClient,
  b: SolvingBacktest,
  f: FixedIssue,
  at: LocalizedAt,
  signal: AbortSignal,
  /** The backtest's claim, carried by its solve run: once another worker holds the backtest, nothing more is written. */
  token: string,
): Promise<BacktestSolve> {
  const issueId = await backtestSolves.pastIssueId(ctx.db, {
    userId: b.user_id,
    repositoryId: b.repository_id,
    fullName: b.full_name,
    number: f.issueNumber,
    title: f.title,
    body: f.body,
    htmlUrl: f.htmlUrl,
  });
  const started = await backtestSolves.startSolveRun(ctx.db, {
    userId: b.user_id,
    issueId,
    modelId: b.model_id ?? DEFAULT_MODEL_ID,
    candidates: await users.defaultCandidates(ctx.db, b.user_id),
    backtestId: b.id,
    token,
  });
  if ("refused" in started) {
    // Ended meanwhile (not finished in time): the backtest's next progress stops it.
    if (started.refused === "ended") throw new Error("The backtest ended before this solve started");
    return notSolved(null, "Not solved: your plan's quota for this period is used up");
  }
  const { runId } = started;
  // The solve run left running by a worker that lost the job is ended (its quota unit given back)
  // by the new holder's solve of the same issue, else with the backtest.
  const claim = { runId, token };
  const run = await runs.loadExisting(ctx.db, runId);
  const issue = await issues.find(ctx.db, issueId);
  let patch: FileChange[];
  let networkNotGranted: boolean;
  try {
    if (!issue) throw new Error("The issue is gone");
    // Steps 4 and 5 as a solve runs them (the reproduction test, then the user's candidates, selection by
    // the repository's tests at the base commit), each model request through the ledger.
    const env = { run, issue, signal };
    const meter = (step: "generating" | "validating") => ledgerMeter(ctx.db, ctx.env, run, step, claim);
    const generating = (await generatingStep.run(at.steps, { ...env, meter: meter("generating") }, ctx)).output;
    const validating = await validatingStep.run(
      { ...at.steps, generating },
      { ...env, meter: meter("validating") },
      ctx,
    );
    patch = (validating.output.generating ?? generating).filesChanged;
    networkNotGranted = validating.output.tests.networkWanted === true;
  } catch (err) {
    if (err instanceof ClaimLost) throw err;
    const error =
      err instanceof CostCapExceeded
        ? { code: err.code, message: err.message }
        : { code: signal.aborted ? "run.cancelled" : "backtest.solve_failed", message: (err as Error).message };
    const cost = await backtestSolves.endSolveRun(ctx.db, claim, { error });
    if (signal.aborted) throw err;
    return notSolved(runId, `Not solved: ${error.message}`, cost);
  }
  const costUsd = await backtestSolves.endSolveRun(ctx.db, claim, { error: null });
  const testPaths = new Set(f.testFiles);
  try {
    const gold = await filesAt(gh, b.owner, b.name, f.headSha, f.changes, signal);
    const verdict = await verifyAgainstPull(
      ctx,
      gh,
      {
        owner: b.owner,
        repo: b.name,
        userId: b.user_id,
        baseSha: f.baseSha,
        tests: gold.filter((g) => testPaths.has(g.filename) && g.action !== "delete"),
        gold,
      },
      patch,
      signal,
    );
    return { runId, ...verdict, detail: clip(verdict.detail), costUsd, networkNotGranted };
  } catch (err) {
    if (signal.aborted) throw err;
    const detail = clip(`The pull request's tests could not be read: ${(err as Error).message}`);
    return { runId, verified: false, reason: "could_not_run", detail, costUsd, networkNotGranted };
  }
}
