import { useState } from "react";
import { Pause, Play, RotateCcw } from "lucide-react";
import { ConfirmDialog } from "../../ui/ConfirmDialog";
import { Badge, Button, Card } from "../../ui/ui";
import { usePauseQueue, useRetryFailed } from "./ops.actions";
import { count, formatAge, formatDuration, percent } from "./ops.format";
import type { OpsQueue } from "./ops.queries";
import { ThroughputChart } from "./ThroughputChart";

/** Past these, the figure is shown in red: a backlog or failures worth a look. */
const SLOW_WAIT_MS = 5 * 60_000;
const HIGH_FAILURE_RATE = 0.1;
const WARN = "font-medium text-red-700 dark:text-red-400";

function Count({ label, value, tone = "" }: { label: string; value: number; tone?: string }) {
  return (
    <div className="rounded-lg bg-slate-50 px-2 py-1.5 dark:bg-slate-800/60">
      <dt className="text-xs text-slate-600 dark:text-slate-400">{label}</dt>
      <dd className={`text-lg font-semibold tabular-nums ${tone}`} title={value.toLocaleString("en")}>
        {count(value)}
      </dd>
    </div>
  );
}

/** One queue: depth by state, oldest waiting, failure rate and durations, the last hour's chart, and its actions. */
export function QueueCard({ queue: q, served }: { queue: OpsQueue; served: boolean }) {
  const [ask, setAsk] = useState<"pause" | "retry" | null>(null);
  const pause = usePauseQueue();
  const retry = useRetryFailed();
  const d = q.durationMs;
  return (
    <Card className="min-w-0">
      <section aria-label={`Queue ${q.name}`}>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 className="font-semibold">{q.name}</h3>
          <span className="flex flex-wrap gap-1">
            {!served && <Badge tone="red">no worker</Badge>}
            {q.paused ? <Badge tone="yellow">paused</Badge> : <Badge tone="green">running</Badge>}
          </span>
        </div>
        <dl className="mt-3 grid grid-cols-4 gap-2">
          <Count label="Waiting" value={q.waiting} />
          <Count label="Active" value={q.active} />
          <Count label="Delayed" value={q.delayed} />
          <Count label="Failed" value={q.failed} tone={q.failed ? "text-red-700 dark:text-red-400" : ""} />
        </dl>
        <dl className="mt-3 grid grid-cols-2 gap-x-3 gap-y-1 text-sm">
          <dt className="text-slate-600 dark:text-slate-400">Oldest waiting</dt>
          <dd className={`text-right tabular-nums ${(q.oldestWaitingMs ?? 0) >= SLOW_WAIT_MS ? WARN : ""}`}>
            {q.oldestWaitingMs === null ? "—" : formatAge(q.oldestWaitingMs)}
          </dd>
          <dt className="text-slate-600 dark:text-slate-400">Failure rate (1 h)</dt>
          <dd className={`text-right tabular-nums ${(q.failureRate ?? 0) >= HIGH_FAILURE_RATE ? WARN : ""}`}>
            {percent(q.failureRate)}
          </dd>
          <dt className="text-slate-600 dark:text-slate-400">p50 / p95 / p99</dt>
          <dd className="text-right tabular-nums">
            {d ? `${formatDuration(d.p50)} / ${formatDuration(d.p95)} / ${formatDuration(d.p99)}` : "—"}
          </dd>
        </dl>
        <ThroughputChart completed={q.completedPerMinute} failed={q.failedPerMinute} label={`Queue ${q.name}`} />
        <div className="mt-3 flex flex-wrap gap-2">
          {q.paused ? (
            <Button
              variant="secondary"
              busy={pause.isPending}
              onClick={() => pause.mutate({ name: q.name, pause: false })}
            >
              <Play className="size-4" aria-hidden /> Resume {q.name}
            </Button>
          ) : (
            <Button variant="secondary" onClick={() => setAsk("pause")}>
              <Pause className="size-4" aria-hidden /> Pause {q.name}
            </Button>
          )}
          {q.failed > 0 && (
            <Button variant="secondary" onClick={() => setAsk("retry")}>
              <RotateCcw className="size-4" aria-hidden /> Retry {q.failed} failed
            </Button>
          )}
        </div>
      </section>
      <ConfirmDialog
        open={ask === "pause"}
        title={`Pause ${q.name}?`}
        confirmLabel="Pause queue"
        danger
        busy={pause.isPending}
        onCancel={() => setAsk(null)}
        onConfirm={() => pause.mutate({ name: q.name, pause: true }, { onSettled: () => setAsk(null) })}
      >
        <p>
          No worker takes a new {q.name} job until you resume it; jobs already running finish. New jobs still queue up.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={ask === "retry"}
        title={`Retry failed ${q.name} jobs?`}
        confirmLabel="Retry jobs"
        busy={retry.isPending}
        onCancel={() => setAsk(null)}
        onConfirm={() => retry.mutate(q.name, { onSettled: () => setAsk(null) })}
      >
        <p>
          {q.failed.toLocaleString()} failed job{q.failed === 1 ? "" : "s"} go back to the queue and run again (up to
          1,000 at a time).
        </p>
      </ConfirmDialog>
    </Card>
  );
}
