import { useEffect, useState, type ReactNode } from "react";
import { Ban, CheckCircle2, ChevronDown, Circle, Loader2, XCircle, type LucideIcon } from "lucide-react";
import { scoreBand, STEP_CANCELLED } from "@fixloop/contract";
import type { Run, RunStep } from "../../api/runs.queries";
import { formatUsd } from "../../api/costs.queries";
import { isTerminal } from "./run-events";
import { LocalizedSymbols } from "./LocalizedSymbols";
import { TestLog } from "./TestLog";

const BAR: Record<ReturnType<typeof scoreBand>, string> = {
  green: "bg-green-600",
  blue: "bg-blue-600",
  orange: "bg-orange-500",
  red: "bg-red-600",
};

/** A step as the panel shows it: its stored status, or the cancel the user asked for. */
type Shown = RunStep["status"] | "cancelling" | "cancelled";
const SHOWN: Record<Shown, { text: string; Icon: LucideIcon; color: string }> = {
  pending: { text: "Pending", Icon: Circle, color: "text-slate-400" },
  running: { text: "In progress", Icon: Loader2, color: "text-violet-600 animate-spin" },
  cancelling: { text: "Cancelling…", Icon: Loader2, color: "text-amber-600 animate-spin" },
  completed: { text: "Complete", Icon: CheckCircle2, color: "text-green-600" },
  skipped: { text: "Complete", Icon: CheckCircle2, color: "text-green-600" },
  failed: { text: "Failed", Icon: XCircle, color: "text-red-600" },
  cancelled: { text: "Cancelled", Icon: Ban, color: "text-slate-500" },
};

export function shownStatus(step: RunStep, run: Run, cancelling: boolean): Shown {
  if (step.status === "failed" && step.detail.warnings.includes(STEP_CANCELLED)) return "cancelled";
  if (step.status === "running" && run.status === "cancelled") return "cancelled";
  if (step.status === "running" && cancelling) return "cancelling";
  return step.status;
}

function title(run: Run, cancelling: boolean): string {
  if (run.status === "cancelled") return "Cancelled";
  if (run.status === "failed") return "Generation failed";
  if (run.status === "completed") return "Solution generated";
  if (cancelling) return "Cancelling…";
  return run.status === "queued" ? "Waiting for a worker..." : "Generating solution";
}

function useElapsed(run: Run): number {
  const start = run.startedAt ?? run.createdAt;
  const ended = isTerminal(run);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (ended) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [ended]);
  const end = ended && run.finishedAt ? Date.parse(run.finishedAt) : now;
  return Math.max(0, Math.round((end - Date.parse(start)) / 1000));
}

/**
 * The five steps as the run's events report them; nothing here is simulated. `cancelling` is set
 * from the moment the user asks to cancel until the run's end arrives. `extra` adds content below
 * a step's row (e.g. a live log).
 */
export function StepsPanel({
  run,
  cancelling = false,
  extra,
}: {
  run: Run;
  cancelling?: boolean;
  extra?: (step: RunStep) => ReactNode;
}) {
  const elapsed = useElapsed(run);
  // The test log sits under the step running the tests: Generating runs the base tree first (to check
  // the reproduction test before the fix), Validating the candidates.
  const validatingStarted = run.steps.some((s) => s.id === "validating" && s.status !== "pending");
  const testsIn = validatingStarted ? "validating" : "generating";
  return (
    <section aria-labelledby="progress-title" className="rounded-xl border border-slate-200 p-4 dark:border-slate-800">
      <div className="mb-3 flex items-center justify-between">
        <h2 id="progress-title" className="font-semibold">
          {title(run, cancelling && !isTerminal(run))}
        </h2>
        <div className="flex items-center gap-3">
          <CostMeter run={run} />
          <span className="font-mono text-sm tabular-nums" aria-label="Elapsed seconds" data-testid="elapsed">
            {elapsed}s
          </span>
        </div>
      </div>
      <ol className="space-y-2" data-testid="steps">
        {/* The run lists all five steps in pipeline order, labelled by the contract. */}
        {run.steps.map((step) => (
          <StepRow key={step.id} step={step} shown={shownStatus(step, run, cancelling)}>
            {extra?.(step)}
            {step.id === testsIn && step.status !== "pending" && (
              <TestLog
                runId={run._id}
                running={step.id === "validating" && step.status === "running"}
                ended={isTerminal(run)}
                evidence={step.id === "validating" ? step.detail.tests : undefined}
              />
            )}
          </StepRow>
        ))}
      </ol>
    </section>
  );
}

/** The run's recorded spend, live, with the estimate of a model request under way. */
function CostMeter({ run }: { run: Run }) {
  const spent = run.steps.reduce((sum, s) => sum + s.cost.usd, 0);
  const pending = run.steps.find((s) => s.status === "running" && s.cost.estimateUsd !== undefined && s.cost.usd === 0);
  return (
    <span className="font-mono text-sm tabular-nums" data-testid="run-cost" aria-label="Run cost" aria-live="polite">
      {formatUsd(spent)}
      {pending?.cost.estimateUsd !== undefined && (
        <span className="text-slate-600 dark:text-slate-400"> (est. +{formatUsd(pending.cost.estimateUsd)})</span>
      )}
    </span>
  );
}

function StepCostText({ cost }: { cost: RunStep["cost"] }) {
  if (cost.usd > 0 || cost.tokensIn > 0) {
    return (
      <span
        className="font-mono text-xs tabular-nums"
        data-testid="step-cost"
        title={`${cost.tokensIn} tokens in, ${cost.tokensOut} out`}
      >
        {formatUsd(cost.usd)}
      </span>
    );
  }
  if (cost.estimateUsd === undefined) return null;
  return (
    <span className="font-mono text-xs tabular-nums text-slate-600 dark:text-slate-400" data-testid="step-cost">
      est. {formatUsd(cost.estimateUsd)}
    </span>
  );
}

function StepRow({ step, shown, children }: { step: RunStep; shown: Shown; children?: ReactNode }) {
  const [open, setOpen] = useState(false);
  const current = shown === "running" || shown === "cancelling";
  // Spec: completed and current steps expand; a current step shows what it has reported so far.
  const expandable = current || (shown !== "pending" && hasDetail(step.detail));
  const { text, Icon, color } = SHOWN[shown];
  return (
    <li data-step={step.id} data-status={shown} className="rounded-lg border border-slate-100 dark:border-slate-800">
      <button
        type="button"
        disabled={!expandable}
        aria-expanded={expandable ? open : undefined}
        onClick={() => setOpen((v) => !v)}
        className="flex w-full items-center gap-3 p-2 text-left disabled:cursor-default"
      >
        <Icon className={`size-5 shrink-0 ${color}`} aria-hidden />
        <span className="flex-1 text-sm font-medium">{step.label}</span>
        <StepCostText cost={step.cost} />
        <span className="text-xs text-slate-600 dark:text-slate-400">{text}</span>
        {expandable && (
          <ChevronDown className={`size-4 transition-transform ${open ? "rotate-180" : ""}`} aria-hidden />
        )}
      </button>
      {shown === "pending" && step.detail.info[0] && (
        <p className="px-10 pb-2 text-xs text-slate-600 dark:text-slate-400" data-testid="step-note" aria-live="polite">
          {step.detail.info[0]}
        </p>
      )}
      {expandable && open && <StepDetailView detail={step.detail} current={current && step.id !== "validating"} />}
      {children}
    </li>
  );
}

const hasDetail = (d: RunStep["detail"]) =>
  d.files.length + d.info.length + d.warnings.length > 0 || d.score !== undefined;

function StepDetailView({ detail, current }: { detail: RunStep["detail"]; current: boolean }) {
  const more = detail.files.length - 5;
  return (
    <div className="space-y-2 border-t border-slate-100 p-3 text-sm dark:border-slate-800" data-testid="step-detail">
      {current && !hasDetail(detail) && (
        <p className="text-slate-600 dark:text-slate-400">Started; nothing reported yet.</p>
      )}
      {detail.files.length > 0 && (
        <ul className="font-mono text-xs">
          {detail.files.slice(0, 5).map((f) => (
            <li key={f}>{f}</li>
          ))}
          {more > 0 && <li className="text-slate-600 dark:text-slate-400">...and {more} more files</li>}
        </ul>
      )}
      <LocalizedSymbols symbols={detail.symbols} rerank={detail.rerank} />
      {detail.info.map((line, i) => (
        <p key={i} className="text-slate-700 dark:text-slate-300">
          {line}
        </p>
      ))}
      {detail.warnings.map((w, i) => (
        <p key={i} className="text-amber-800 dark:text-amber-300">
          ⚠ {w}
        </p>
      ))}
      {detail.score !== undefined && (
        <div className="flex items-center gap-2">
          <div
            className="h-2 flex-1 rounded-full bg-slate-200 dark:bg-slate-700"
            role="meter"
            aria-label="Score"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={detail.score}
          >
            <div className={`h-2 rounded-full ${BAR[scoreBand(detail.score)]}`} style={{ width: `${detail.score}%` }} />
          </div>
          <span className="text-xs tabular-nums">{detail.score}/100</span>
        </div>
      )}
    </div>
  );
}
