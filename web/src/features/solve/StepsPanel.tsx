import { useEffect, useState } from "react";
import { CheckCircle2, ChevronDown, Circle, Loader2, XCircle } from "lucide-react";
import { scoreBand } from "@fixloop/api/client";
import type { Run, RunStep } from "../../api/runs.queries";
import { isTerminal } from "./run-events";

const BAR: Record<ReturnType<typeof scoreBand>, string> = { green: "bg-green-600", blue: "bg-blue-600", orange: "bg-orange-500", red: "bg-red-600" };
const STATE_TEXT = { pending: "Pending", running: "In progress", completed: "Complete", failed: "Failed", skipped: "Complete" } as const;

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

/** The five steps as the run's events report them; nothing here is simulated. */
export function StepsPanel({ run }: { run: Run }) {
  const elapsed = useElapsed(run);
  return (
    <section aria-labelledby="progress-title" className="rounded-xl border border-slate-200 p-4 dark:border-slate-800">
      <div className="mb-3 flex items-center justify-between">
        <h2 id="progress-title" className="font-semibold">
          {run.status === "queued" ? "Waiting for a worker..." : "Generating solution"}
        </h2>
        <span className="font-mono text-sm tabular-nums" aria-label="Elapsed seconds" data-testid="elapsed">
          {elapsed}s
        </span>
      </div>
      <ol className="space-y-2" data-testid="steps">
        {/* The run lists all five steps in pipeline order, labelled by the contract. */}
        {run.steps.map((step) => (
          <StepRow key={step.id} step={step} />
        ))}
      </ol>
    </section>
  );
}

function StepRow({ step }: { step: RunStep }) {
  const status = step.status;
  const [open, setOpen] = useState(false);
  const expandable = status !== "pending" && (step.detail.files.length + step.detail.info.length + step.detail.warnings.length > 0 || step.detail.score !== undefined);
  const Icon = status === "completed" || status === "skipped" ? CheckCircle2 : status === "running" ? Loader2 : status === "failed" ? XCircle : Circle;
  const color = status === "completed" || status === "skipped" ? "text-green-600" : status === "running" ? "text-violet-600 animate-spin" : status === "failed" ? "text-red-600" : "text-slate-400";
  return (
    <li data-step={step.id} data-status={status} className="rounded-lg border border-slate-100 dark:border-slate-800">
      <button
        type="button"
        disabled={!expandable}
        aria-expanded={expandable ? open : undefined}
        onClick={() => setOpen((v) => !v)}
        className="flex w-full items-center gap-3 p-2 text-left disabled:cursor-default"
      >
        <Icon className={`size-5 shrink-0 ${color}`} aria-hidden />
        <span className="flex-1 text-sm font-medium">{step.label}</span>
        <span className="text-xs text-slate-600 dark:text-slate-400">{STATE_TEXT[status]}</span>
        {expandable && <ChevronDown className={`size-4 transition-transform ${open ? "rotate-180" : ""}`} aria-hidden />}
      </button>
      {expandable && open && <StepDetailView detail={step.detail} />}
    </li>
  );
}

function StepDetailView({ detail }: { detail: NonNullable<RunStep["detail"]> }) {
  const more = detail.files.length - 5;
  return (
    <div className="space-y-2 border-t border-slate-100 p-3 text-sm dark:border-slate-800">
      {detail.files.length > 0 && (
        <ul className="font-mono text-xs">
          {detail.files.slice(0, 5).map((f) => (
            <li key={f}>{f}</li>
          ))}
          {more > 0 && <li className="text-slate-600 dark:text-slate-400">...and {more} more files</li>}
        </ul>
      )}
      {detail.info.map((line, i) => (
        <p key={i} className="text-slate-700 dark:text-slate-300">{line}</p>
      ))}
      {detail.warnings.map((w, i) => (
        <p key={i} className="text-amber-800 dark:text-amber-300">⚠ {w}</p>
      ))}
      {detail.score !== undefined && (
        <div className="flex items-center gap-2">
          <div className="h-2 flex-1 rounded-full bg-slate-200 dark:bg-slate-700" role="meter" aria-label="Score" aria-valuemin={0} aria-valuemax={100} aria-valuenow={detail.score}>
            <div className={`h-2 rounded-full ${BAR[scoreBand(detail.score)]}`} style={{ width: `${detail.score}%` }} />
          </div>
          <span className="text-xs tabular-nums">{detail.score}/100</span>
        </div>
      )}
    </div>
  );
}
