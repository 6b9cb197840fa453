import { setTimeout as sleep } from "node:timers/promises";
import { backtestSolves, runs, runSpent, steps, users, type SolveRun } from "@fixloop/db";
import {
  ACTIVE_RUN_STATUSES,
  DEFAULT_MODEL_ID,
  GeneratingOutput,
  REUSED_ON_REFINE,
  ValidatingOutput,
  type BacktestSolve,
  type FileChange,
} from "@fixloop/contract";
import { enqueueRun, type GithubClient } from "@fixloop/runtime";
import type { WorkerContext } from "../context";
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

/** How often a backtest looks whether the solve run it waits for has ended. */
export const SOLVE_POLL_MS = 500;

/**
 * Solves one past issue at its pull request's base commit and checks the selected candidate
 * against the pull request's own tests. The solve is a `backtest` run of the one run engine:
 * started by `runs.start` (its quota unit reserved) with its steps 1–3 as localization found
 * them at the base commit, then queued and run by the solve queue's processor as any run (steps 4
 * and 5, every model request through the same quota, caps and ledger; see run.processor). A
 * refusal is said, not raised. It writes no solution, opens no pull request and leaves the issue
 * as it is. The backtest waits for the run to end; a backtest attempt that stops leaves the run to
 * go on, and the next attempt waits for that same run.
 */
export async function solvePast(
  ctx: WorkerContext,
  gh: GithubClient,
  b: SolvingBacktest,
  f: FixedIssue,
  at: LocalizedAt,
  signal: AbortSignal,
  /** The backtest's claim: no solve starts once another worker holds the backtest (ClaimLost). */
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
  const info = [`Localized at the pull request's base commit ${f.baseSha.slice(0, 7)}`];
  const started = await backtestSolves.startSolveRun(ctx.db, {
    userId: b.user_id,
    issueId,
    modelId: b.model_id ?? DEFAULT_MODEL_ID,
    candidates: await users.defaultCandidates(ctx.db, b.user_id),
    backtestId: b.id,
    token,
    // Stored with the run: its processor starts after them.
    localized: REUSED_ON_REFINE.map((step) => ({
      step,
      detail: { files: [], info, warnings: [] },
      output: at.steps[step],
    })),
  });
  if ("refused" in started) {
    // Ended meanwhile (not finished in time): the backtest's next progress stops it.
    if (started.refused === "ended") throw new Error("The backtest ended before this solve started");
    return notSolved(null, "Not solved: your plan's quota for this period is used up");
  }
  const { runId } = started;
  // Queued under the run's own job id: an adopted run's job still queued or running is kept.
  await enqueueRun(ctx, runId).catch(async (err: unknown) => {
    await runs.failUnqueued(ctx.db, runId);
    throw err;
  });
  const run = await runEnd(ctx, runId, signal);
  const costUsd = await runSpent(ctx.db, runId);
  const solved = run.status === "completed" ? await solvedPatch(ctx, runId) : null;
  if (!solved) return notSolved(runId, `Not solved: ${run.error_message ?? "the solve did not finish"}`, costUsd);
  const { patch, networkNotGranted } = solved;
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

/** The run once it ended (completed, failed or cancelled), read every SOLVE_POLL_MS; throws when `signal` aborts first. */
async function runEnd(ctx: WorkerContext, runId: string, signal: AbortSignal): Promise<SolveRun> {
  for (;;) {
    const run = await runs.loadExisting(ctx.db, runId);
    if (!(ACTIVE_RUN_STATUSES as readonly string[]).includes(run.status)) return run;
    await sleep(SOLVE_POLL_MS, undefined, { signal });
  }
}

/** The patch a completed backtest run selected (step 5's, else step 4's) and whether its setup wanted the network. */
async function solvedPatch(
  ctx: WorkerContext,
  runId: string,
): Promise<{ patch: FileChange[]; networkNotGranted: boolean } | null> {
  const stored = await steps.load(ctx.db, runId, ["generating", "validating"]);
  const generating = GeneratingOutput.safeParse(stored.get("generating")?.output);
  const validating = ValidatingOutput.safeParse(stored.get("validating")?.output);
  if (!generating.success || !validating.success) return null;
  return {
    patch: (validating.data.generating ?? generating.data).filesChanged,
    networkNotGranted: validating.data.tests.networkWanted === true,
  };
}
