import {
  type ErrorBody,
  RESUMED_AFTER_RESTART,
  RUN_CANCELLED,
  RETRIED_AFTER_FAILURE,
  STEP_CANCELLED,
  StepCost,
  StepId,
  StepOutputs,
  latestFeedback,
  queuedNote,
  stepCost,
  stepDetailOf,
} from "@fixloop/contract";
import { UnrecoverableError } from "bullmq";
import type { FileChange, StepDetail } from "@fixloop/contract";
import type { SolveRun } from "@fixloop/db";
import { ClaimLost, issues, recoverReservations, runs, steps, users } from "@fixloop/db";
import type { WorkerContext } from "../context";
import { openRunEventLog, type RunEventLog } from "@fixloop/runtime";
import { finalizeRun } from "./run.finalize";
import { PIPELINE, type PipelineStep, type StepEnv } from "./steps";
import { classifyFailure, RunCancelled, RunUnverified } from "./run.errors";
import { ledgerMeter } from "./run.budget";
import { copyOriginalSteps } from "./run.refine";
import { noteQueued, RunDeferred } from "./run.queue";
import { recordStepDuration } from "../metrics/step.metrics";
import { testLogRecorder } from "./run.test-logs";
import { runStopAtJobTime } from "./run.standing";

export interface AttemptInfo {
  /** True when BullMQ will not retry this job after a failure. */
  finalAttempt: boolean;
  /** True when an earlier attempt of this job failed (a stalled job after a worker died is not a failure). */
  retry?: boolean;
}

const now = () => new Date().toISOString();

/**
 * Runs (or resumes) one solve/refine run: every stored step is skipped, each new result is stored,
 * then announced. `claim` is this attempt's: once the run is claimed with it, every write carries
 * it, and a worker that lost the run (another claimed it since) writes nothing more (ClaimLost).
 */
export async function processRun(
  claim: runs.RunClaim,
  ctx: WorkerContext,
  signal: AbortSignal,
  attempt: AttemptInfo,
): Promise<{ solutionId: string } | { status: string }> {
  const { runId } = claim;
  const log = await openRunEventLog(ctx.redis, ctx.queues.prefix, runId);
  const existing = await runs.load(ctx.db, runId);
  if (!existing) throw new UnrecoverableError(`Run ${runId} does not exist`);
  if (existing.status !== "queued" && existing.status !== "running") {
    await announceEnd(log, existing);
    return { status: existing.status };
  }
  // Not claimed yet: the run ends as whoever holds it.
  if (existing.cancel_requested_at) return cancel(ctx, log, existing, null, null);
  const claimed = await runs.claimWithinCap(ctx.db, runId, ctx.env.MAX_ACTIVE_RUNS_PER_USER, claim.token);
  if (claimed.status === "ended") return { status: "ended" };
  if (claimed.status === "deferred") {
    await noteQueued(log, queuedNote(claimed.ahead, claimed.cap));
    throw new RunDeferred(claimed.userId);
  }
  const run = claimed.run;
  // Reservations an earlier attempt left in flight died with it: they are recorded at their worst case, unconfirmed.
  const interrupted = await recoverReservations(ctx.db, { runId });
  if (interrupted)
    ctx.logger.warn({ runId, interrupted }, "model requests of a crashed attempt recorded at their worst case");
  const issue = await issues.find(ctx.db, run.issue_id);
  if (!issue) return fail(ctx, log, claim, run, null, { code: "issue.not_found", message: "The issue was deleted" });
  // GitHub no longer has the issue (marked while the run waited): it ends before anything is spent on it.
  // A backtest's solve of a past issue follows its backtest, not its issue (see db's runs.kinds).
  if (run.kind !== "backtest" && runStopAtJobTime(issue)) return cancel(ctx, log, run, null, claim);
  if (run.kind === "solve") {
    await issues.markAnalyzing(ctx.db, issue.id);
  }
  let baseline: FileChange[] | undefined;
  if (run.kind === "refine") {
    const reused = await copyOriginalSteps(ctx.db, run, claim);
    if (!reused.ok) return fail(ctx, log, claim, run, null, { code: "refine.source_missing", message: reused.message });
    baseline = reused.baseline;
  }

  const stored = await steps.load(ctx.db, runId);
  const resumeNote = attempt.retry ? RETRIED_AFTER_FAILURE : RESUMED_AFTER_RESTART;
  const state: RunState = {
    ctx,
    log,
    stored,
    done: {},
    current: null,
    resumeNote,
    claim,
    env: { run, issue, signal, baseline },
  };
  try {
    for (const step of PIPELINE) await runStep(step, state);
    // A cancel that arrived during the last step ends the run here: no solution is stored.
    if (signal.aborted || (await cancelRequested(ctx, runId))) throw new RunCancelled();
    const { analyzing, context, generating, validating } = state.done;
    if (!analyzing || !context || !generating || !validating) throw new Error("A step ended without its output");
    // A backtest's solve makes no solution: its backtest reads the patch from the stored steps.
    if (run.kind === "backtest") return completeWithoutSolution(ctx, claim);
    // Abstention: an unverified result ends the run without a solution when the user asked for that.
    if (validating.unverified && !(await presentUnverified(ctx, run.user_id)))
      throw new RunUnverified(validating.unverified.reason);
    const solutionId = await finalizeRun(ctx.db, {
      claim,
      analyzing,
      context,
      generating,
      validating,
      feedback: latestFeedback(run.input),
    });
    await log.emit({ type: "completed", solutionId, at: now() });
    return { solutionId };
  } catch (err) {
    // Another worker claimed the run since: whatever went wrong here, the run is its to end.
    if (err instanceof ClaimLost) throw err;
    const current = state.current;
    const fresh = await runs.load(ctx.db, runId);
    if (fresh?.cancel_requested_at || err instanceof RunCancelled)
      return cancel(ctx, log, fresh ?? run, current, claim);
    const failure = classifyFailure(err, current);
    if (failure.retryable && !attempt.finalAttempt) {
      ctx.logger.warn(
        { runId, step: current, code: failure.code, err: (err as Error).message },
        "run step failed; the job will retry",
      );
      throw err;
    }
    return fail(ctx, log, claim, run, current, failure);
  }
}

/** One run's progress through the step list: what is stored, what is done, and the step under way. */
interface RunState {
  ctx: WorkerContext;
  log: RunEventLog;
  stored: Map<StepId, steps.StepRecord>;
  done: Partial<StepOutputs>;
  /** The step started and not yet stored; null before the first and between steps. */
  current: StepId | null;
  /** Said by a step an earlier attempt left running. */
  resumeNote: string;
  /** Carried by every write of the run (see runs.claims). */
  claim: runs.RunClaim;
  env: Pick<StepEnv, "run" | "issue" | "signal" | "baseline">;
}

/** Skips a step whose output is stored (announcing it again), else runs it, stores its result and announces it. */
async function runStep<K extends StepId>(step: PipelineStep<K>, s: RunState): Promise<void> {
  const { ctx, log, env, claim } = s;
  const runId = env.run.id;
  const keepTestLog = testLogRecorder(ctx.db, runId);
  const prior = s.stored.get(step.id);
  if (prior?.status === "completed" && prior.output !== null) {
    const decoded = step.output.safeParse(prior.output);
    if (decoded.success) {
      s.done[step.id] = decoded.data;
      await log.emit({
        type: "step",
        step: step.id,
        status: "completed",
        detail: stepDetailOf(prior.detail),
        at: (prior.finished_at ?? new Date()).toISOString(),
        cost: stepCost(prior),
      });
      return;
    }
    ctx.logger.warn({ runId, step: step.id }, "stored step output no longer decodes; the step runs again");
  }
  if (env.signal.aborted || (await cancelRequested(ctx, runId))) throw new RunCancelled();
  s.current = step.id;
  const input = step.input(s.done);
  if (!input) throw new Error(`The ${step.id} step is missing an earlier step's output`);
  const startedAt = new Date();
  // An earlier attempt started this step and never finished it: the user sees why it starts again.
  const resumed = prior?.status === "running" ? [s.resumeNote] : [];
  await steps.markRunning(ctx.db, claim, step.id);
  await log.emit({
    type: "step",
    step: step.id,
    status: "running",
    detail: { files: [], info: resumed, warnings: [] },
    at: now(),
  });
  const retries: string[] = [];
  let reported: StepDetail = { files: [], info: resumed, warnings: [] };
  const report = async (detail: StepDetail) => {
    reported = detail;
    await steps.storeProgress(ctx.db, claim, step.id, detail);
    await log.emit({ type: "step", step: step.id, status: "running", detail: stepDetailOf(detail), at: now() });
  };
  let estimateUsd: number | undefined;
  const result = await step.run(
    input,
    {
      ...env,
      onModelRetry: (r) => {
        retries.push(`Provider retry ${r.attempt}: ${r.reason} (waited ${Math.round(r.waitMs / 100) / 10}s)`);
        void report({ ...reported, warnings: [...reported.warnings, ...retries.slice(-1)] }).catch(() => {});
      },
      report,
      onTestsEvent: async (e) => {
        await log.emit(e);
        if (e.type === "tests") await keepTestLog(e);
      },
      meter: ledgerMeter(ctx.db, ctx.env, env.run, step.id, claim),
      onPrompt: async (record) => {
        await steps.storePrompt(ctx.db, claim, step.id, record);
        estimateUsd = record.estimate.usd;
        const cost = { tokensIn: 0, tokensOut: 0, usd: 0, estimateUsd: record.estimate.usd };
        await log.emit({
          type: "step",
          step: step.id,
          status: "running",
          detail: stepDetailOf({
            ...reported,
            info: [
              ...reported.info,
              `Estimated cost: $${record.estimate.usd.toFixed(4)} (${record.estimate.tokensIn} tokens in)`,
            ],
          }),
          at: now(),
          cost,
        });
      },
    },
    ctx,
  );
  if (retries.length) result.detail.warnings.push(...retries);
  if (resumed.length) result.detail.info.unshift(...resumed);
  await steps.storeResult(ctx.db, claim, step.id, result, startedAt);
  // Its result is stored: the step is over, so a cancel noticed (or a failure) from here until the
  // next step starts ends the run without marking this completed step failed or cancelled.
  s.current = null;
  recordStepDuration(ctx, step.id, (Date.now() - startedAt.getTime()) / 1000);
  s.done[step.id] = result.output;
  const cost: StepCost = {
    tokensIn: result.tokensIn ?? 0,
    tokensOut: result.tokensOut ?? 0,
    usd: result.costUsd ?? 0,
    ...(estimateUsd !== undefined ? { estimateUsd } : {}),
  };
  await log.emit({
    type: "step",
    step: step.id,
    status: "completed",
    detail: stepDetailOf(result.detail),
    at: now(),
    cost,
  });
}

/** Ends a backtest's solve completed, its quota unit charged; one that ended with its backtest meanwhile keeps that end. */
async function completeWithoutSolution(ctx: WorkerContext, claim: runs.RunClaim): Promise<{ status: string }> {
  if (await runs.completeWithoutSolution(ctx.db, claim)) return { status: "completed" };
  return { status: (await runs.loadExisting(ctx.db, claim.runId)).status };
}

/** The user's "present unverified solutions" setting, or the operator's default (PRESENT_UNVERIFIED). */
async function presentUnverified(ctx: WorkerContext, userId: string): Promise<boolean> {
  return (await users.presentUnverified(ctx.db, userId)) ?? ctx.env.PRESENT_UNVERIFIED;
}

async function cancelRequested(ctx: WorkerContext, runId: string): Promise<boolean> {
  return runs.cancelRequested(ctx.db, runId);
}

async function fail(
  ctx: WorkerContext,
  log: RunEventLog,
  claim: runs.RunClaim,
  run: SolveRun,
  step: StepId | null,
  error: { code: string; message: string },
): Promise<never> {
  if (step) await steps.markFailed(ctx.db, claim, step, failedDetail(error.message));
  await runs.end(ctx.db, run, "failed", error, claim);
  if (step)
    await log.emit({
      type: "step",
      step,
      status: "failed",
      detail: stepDetailOf(failedDetail(error.message)),
      at: now(),
    });
  await log.emit({ type: "failed", error, at: now() });
  throw new UnrecoverableError(`${error.code}: ${error.message}`);
}

async function cancel(
  ctx: WorkerContext,
  log: RunEventLog,
  run: SolveRun,
  step: StepId | null,
  /** This attempt's claim; null before the run was claimed. */
  claim: runs.RunClaim | null,
): Promise<{ status: string }> {
  const error = await cancelReason(ctx, run);
  // The writes first: a worker that lost the run says and announces nothing.
  if (step) await steps.markFailed(ctx.db, claim ?? run.id, step, failedDetail(STEP_CANCELLED));
  await runs.end(ctx.db, run, "cancelled", error, claim ?? undefined);
  ctx.logger.info({ runId: run.id, step, code: error.code }, "run ending cancelled");
  if (step)
    await log.emit({
      type: "step",
      step,
      status: "failed",
      detail: stepDetailOf(failedDetail(STEP_CANCELLED)),
      at: now(),
    });
  await log.emit({ type: "cancelled", error, at: now() });
  ctx.logger.debug({ runId: run.id }, "run ended cancelled");
  return { status: "cancelled" };
}

/**
 * Why a run ends cancelled: the reason stored with the first request to stop it (the user's or the
 * ops page's Cancel, or its issue gone from GitHub, see the runtime's `cancelRun`), so a Cancel
 * followed by the issue going keeps saying it was cancelled. Without one (the issue was marked gone
 * by a process that stopped before flagging its runs), its issue gone, else a Cancel.
 */
async function cancelReason(ctx: WorkerContext, run: SolveRun): Promise<ErrorBody> {
  const stored = await runs.cancelReasonOf(ctx.db, run.id);
  if (stored) return stored;
  const issue = await issues.find(ctx.db, run.issue_id);
  return (issue && runStopAtJobTime(issue)) ?? RUN_CANCELLED;
}

const failedDetail = (message: string): StepDetail => ({ files: [], info: [], warnings: [message] });

/** Re-announces a finished run's end (a crash may have come between storing it and appending the event). */
async function announceEnd(log: RunEventLog, run: SolveRun): Promise<void> {
  if (run.status === "completed" && run.solution_id)
    await log.emit({ type: "completed", solutionId: run.solution_id, at: now() });
  else if (run.status === "failed")
    await log.emit({
      type: "failed",
      error: { code: run.error_code ?? "run.failed", message: run.error_message ?? "The run failed" },
      at: now(),
    });
  else if (run.status === "cancelled")
    await log.emit({
      type: "cancelled",
      error: { code: run.error_code ?? RUN_CANCELLED.code, message: run.error_message ?? RUN_CANCELLED.message },
      at: now(),
    });
}
