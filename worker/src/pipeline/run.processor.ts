import { UnrecoverableError } from "bullmq";
import type { FileChange, SolveRun, StepDetail } from "@fixloop/db";
import { issues, recordModelRequest } from "@fixloop/db";
import { STEP_CANCELLED } from "@fixloop/db/domain";
import { z } from "zod";
import {
  SolutionTests,
  StepRerank,
  StepSymbol,
  STEPS,
  stepCost,
  type StepCost,
  type StepDetail as ContractStepDetail,
  type StepId,
} from "../contract";
import type { WorkerContext } from "../context";
import { openRunEventLog, type RunEventLog } from "../contract";
import { finalizeRun } from "./run.finalize";
import {
  claimRun,
  endRun,
  loadRun,
  loadSteps,
  markStepFailed,
  markStepRunning,
  storeStepProgress,
  storeStepPrompt,
  storeStepResult,
} from "./run.store";
import { executeStep } from "./run.steps";
import { classifyFailure, RunCancelled } from "./run.errors";
import { copyOriginalSteps } from "./run.refine";

export interface AttemptInfo {
  /** True when BullMQ will not retry this job after a failure. */
  finalAttempt: boolean;
}

const now = () => new Date().toISOString();

/** Runs (or resumes) one solve/refine run: every stored step is skipped, each new result is stored, then announced. */
export async function processRun(
  runId: string,
  ctx: WorkerContext,
  signal: AbortSignal,
  attempt: AttemptInfo,
): Promise<{ solutionId: string } | { status: string }> {
  const log = await openRunEventLog(ctx.redis, ctx.queues.prefix, runId);
  const existing = await loadRun(ctx.db, runId);
  if (!existing) throw new UnrecoverableError(`Run ${runId} does not exist`);
  if (existing.status !== "queued" && existing.status !== "running") {
    await announceEnd(log, existing);
    return { status: existing.status };
  }
  if (existing.cancel_requested_at) return cancel(ctx, log, existing, null);
  const run = await claimRun(ctx.db, runId);
  if (!run) return { status: "ended" };
  const issue = await ctx.db.selectFrom("issues").selectAll().where("id", "=", run.issue_id).executeTakeFirst();
  if (!issue) return fail(ctx, log, run, null, { code: "issue.not_found", message: "The issue was deleted" });
  if (run.kind === "solve") {
    await issues.markAnalyzing(ctx.db, issue.id);
  }
  let baseline: FileChange[] | undefined;
  if (run.kind === "refine") {
    const reused = await copyOriginalSteps(ctx.db, run);
    if (!reused.ok) return fail(ctx, log, run, null, { code: "refine.source_missing", message: reused.message });
    baseline = reused.baseline;
  }

  const stored = await loadSteps(ctx.db, runId);
  const outputs: Partial<Record<StepId, unknown>> = {};
  let current: StepId | null = null;
  try {
    for (const step of STEPS) {
      const prior = stored.get(step);
      if (prior?.status === "completed" && prior.output !== null) {
        outputs[step] = prior.output;
        await log.emit({
          type: "step",
          step,
          status: "completed",
          detail: eventDetail(prior.detail),
          at: (prior.finished_at ?? new Date()).toISOString(),
          cost: stepCost(prior),
        });
        continue;
      }
      if (signal.aborted || (await cancelRequested(ctx, runId))) throw new RunCancelled();
      current = step;
      const startedAt = new Date();
      await markStepRunning(ctx.db, runId, step);
      await log.emit({
        type: "step",
        step,
        status: "running",
        detail: { files: [], info: [], warnings: [] },
        at: now(),
      });
      const retries: string[] = [];
      let reported: StepDetail = { files: [], info: [], warnings: [] };
      const report = async (detail: StepDetail) => {
        reported = detail;
        await storeStepProgress(ctx.db, runId, step, detail);
        await log.emit({ type: "step", step, status: "running", detail: eventDetail(detail), at: now() });
      };
      let estimateUsd: number | undefined;
      const result = await executeStep(
        step,
        {
          run,
          issue,
          outputs,
          signal,
          baseline,
          onModelRetry: (r) => {
            retries.push(`Provider retry ${r.attempt}: ${r.reason} (waited ${Math.round(r.waitMs / 100) / 10}s)`);
            void report({ ...reported, warnings: [...reported.warnings, ...retries.slice(-1)] }).catch(() => {});
          },
          report,
          onTestsEvent: (e) => log.emit(e),
          onModelRequest: (r) => recordModelRequest(ctx.db, { ...r, runId, userId: run.user_id, step }),
          onPrompt: async (record) => {
            await storeStepPrompt(ctx.db, runId, step, record);
            estimateUsd = record.estimate.usd;
            const cost = { tokensIn: 0, tokensOut: 0, usd: 0, estimateUsd: record.estimate.usd };
            await log.emit({
              type: "step",
              step,
              status: "running",
              detail: eventDetail({
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
      await storeStepResult(ctx.db, runId, step, result, startedAt);
      outputs[step] = result.output;
      const cost: StepCost = {
        tokensIn: result.tokensIn ?? 0,
        tokensOut: result.tokensOut ?? 0,
        usd: result.costUsd ?? 0,
        ...(estimateUsd !== undefined ? { estimateUsd } : {}),
      };
      await log.emit({ type: "step", step, status: "completed", detail: eventDetail(result.detail), at: now(), cost });
    }
    const solutionId = await finalizeRun(ctx.db, {
      runId,
      analyzing: outputs.analyzing as never,
      context: outputs.context as never,
      generating: outputs.generating as never,
      validating: outputs.validating as never,
      feedback: latestFeedback(run),
    });
    await log.emit({ type: "completed", solutionId, at: now() });
    return { solutionId };
  } catch (err) {
    const fresh = await loadRun(ctx.db, runId);
    if (fresh?.cancel_requested_at || err instanceof RunCancelled) return cancel(ctx, log, fresh ?? run, current);
    const failure = classifyFailure(err, current);
    if (failure.retryable && !attempt.finalAttempt) {
      ctx.logger.warn(
        { runId, step: current, code: failure.code, err: (err as Error).message },
        "run step failed; the job will retry",
      );
      throw err;
    }
    return fail(ctx, log, run, current, failure);
  }
}

async function cancelRequested(ctx: WorkerContext, runId: string): Promise<boolean> {
  const r = await ctx.db
    .selectFrom("solve_runs")
    .select("cancel_requested_at")
    .where("id", "=", runId)
    .executeTakeFirst();
  return Boolean(r?.cancel_requested_at);
}

function latestFeedback(run: SolveRun): string | undefined {
  const f = (run.input as { feedback?: unknown }).feedback;
  return Array.isArray(f) && typeof f[f.length - 1] === "string" ? (f[f.length - 1] as string) : undefined;
}

async function fail(
  ctx: WorkerContext,
  log: RunEventLog,
  run: SolveRun,
  step: StepId | null,
  error: { code: string; message: string },
): Promise<never> {
  if (step) await markStepFailed(ctx.db, run.id, step, failedDetail(error.message));
  await endRun(ctx.db, run, "failed", error);
  if (step)
    await log.emit({
      type: "step",
      step,
      status: "failed",
      detail: eventDetail(failedDetail(error.message)),
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
): Promise<{ status: string }> {
  if (step) await markStepFailed(ctx.db, run.id, step, failedDetail(STEP_CANCELLED));
  if (step)
    await log.emit({
      type: "step",
      step,
      status: "failed",
      detail: eventDetail(failedDetail(STEP_CANCELLED)),
      at: now(),
    });
  await endRun(ctx.db, run, "cancelled", { code: "run.cancelled", message: "The run was cancelled" });
  await log.emit({ type: "cancelled", at: now() });
  return { status: "cancelled" };
}

/** A stored step detail as the event carries it (test evidence checked against the contract). */
function eventDetail(d: StepDetail): ContractStepDetail {
  const tests = SolutionTests.safeParse(d.tests);
  const symbols = z.array(StepSymbol).safeParse(d.symbols);
  const rerank = StepRerank.safeParse(d.rerank);
  return {
    files: d.files,
    info: d.info,
    warnings: d.warnings,
    ...(d.score === undefined ? {} : { score: d.score }),
    ...(tests.success ? { tests: tests.data } : {}),
    ...(symbols.success ? { symbols: symbols.data } : {}),
    ...(rerank.success ? { rerank: rerank.data } : {}),
  };
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
  else if (run.status === "cancelled") await log.emit({ type: "cancelled", at: now() });
}
