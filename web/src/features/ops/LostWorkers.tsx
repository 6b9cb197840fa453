import { X } from "lucide-react";
import { Badge, Button } from "../../ui/ui";
import { useDismissLostWorker } from "./ops.actions";
import { ago } from "./ops.format";
import type { OpsLostWorker } from "./ops.queries";

/**
 * Worker processes that stopped beating without stopping cleanly (killed, OOM, a node lost):
 * listed with when they went and their last jobs until an operator dismisses them. Their jobs are
 * taken up again by BullMQ's stalled-job check on a live worker.
 */
export function LostWorkers({ workers, now }: { workers: OpsLostWorker[]; now: number }) {
  const dismiss = useDismissLostWorker();
  if (!workers.length) return null;
  return (
    <ul className="mt-3 grid gap-3 md:grid-cols-2" aria-label="Lost worker processes">
      {workers.map((w) => (
        <li
          key={w.id}
          aria-label={`Lost worker ${w.host} pid ${w.pid}`}
          className="min-w-0 rounded-xl border border-red-300 bg-red-50 p-4 dark:border-red-900 dark:bg-red-950/40"
        >
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="min-w-0 truncate font-mono text-sm font-medium" title={w.id}>
              {w.host} · pid {w.pid}
            </p>
            <Badge tone="red">lost</Badge>
          </div>
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
            <dt className="text-slate-700 dark:text-slate-300">Last heartbeat</dt>
            <dd className="tabular-nums" data-testid="lost-at">
              {ago(w.heartbeatAt, now)} ({new Date(w.heartbeatAt).toLocaleString()})
            </dd>
            <dt className="text-slate-700 dark:text-slate-300">Queues</dt>
            <dd className="min-w-0 break-words">{w.queues.join(", ") || "—"}</dd>
            <dt className="text-slate-700 dark:text-slate-300">Last jobs</dt>
            <dd className="min-w-0 break-words font-mono text-xs leading-5" data-testid="lost-jobs">
              {w.recentJobs.length ? w.recentJobs.join(", ") : "none taken"}
            </dd>
          </dl>
          <p className="mt-2 text-xs text-slate-700 dark:text-slate-300">
            It stopped without a clean shutdown; a live worker takes up its unfinished jobs.
          </p>
          <Button
            variant="secondary"
            className="mt-3"
            busy={dismiss.isPending && dismiss.variables === w.id}
            onClick={() => dismiss.mutate(w.id)}
          >
            <X className="size-4" aria-hidden /> Dismiss
          </Button>
        </li>
      ))}
    </ul>
  );
}
