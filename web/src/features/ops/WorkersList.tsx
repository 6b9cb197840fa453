import { useState } from "react";
import { PowerOff } from "lucide-react";
import { ConfirmDialog } from "../../ui/ConfirmDialog";
import { Badge, Button, EmptyState, type Tone } from "../../ui/ui";
import { useDrainWorker } from "./ops.actions";
import { ago, formatAge } from "./ops.format";
import type { OpsWorker } from "./ops.queries";
import { WorkerSandbox } from "./WorkerSandbox";

/** Heartbeats come every 5 s; one this late means the process is stuck or gone (it drops off at 15 s). */
const LATE_HEARTBEAT_MS = 10_000;

const STATE_TONE: Record<OpsWorker["state"], Tone> = { running: "green", draining: "yellow", drained: "gray" };

/** Every worker process that sent a heartbeat lately, with a drain action for the running ones. */
export function WorkersList({ workers, now }: { workers: OpsWorker[]; now: number }) {
  const [target, setTarget] = useState<OpsWorker | null>(null);
  const drain = useDrainWorker();
  if (!workers.length)
    return (
      <EmptyState title="No worker process is running">
        Jobs wait until a worker starts (npm run worker, or scale the worker service).
      </EmptyState>
    );
  return (
    <>
      <ul className="grid gap-3 md:grid-cols-2">
        {workers.map((w) => (
          <li
            key={w.id}
            aria-label={`Worker ${w.host} pid ${w.pid}`}
            className="min-w-0 rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
          >
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="min-w-0 truncate font-mono text-sm font-medium" title={w.id}>
                {w.host} · pid {w.pid}
              </p>
              <Badge tone={STATE_TONE[w.state]}>{w.state}</Badge>
            </div>
            <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
              <dt className="text-slate-600 dark:text-slate-400">Queues</dt>
              <dd className="flex min-w-0 flex-wrap gap-1">
                {w.queues.length
                  ? w.queues.map((q) => (
                      <span
                        key={q}
                        className="whitespace-nowrap rounded bg-slate-100 px-1.5 text-xs leading-5 dark:bg-slate-800"
                      >
                        {q}
                      </span>
                    ))
                  : "—"}
              </dd>
              <dt className="text-slate-600 dark:text-slate-400">Active jobs</dt>
              <dd className="tabular-nums">
                {w.activeJobs} of {w.concurrency} per queue
              </dd>
              <dt className="text-slate-600 dark:text-slate-400">Up for</dt>
              <dd className="tabular-nums">{formatAge(Math.max(0, now - Date.parse(w.startedAt)))}</dd>
              <dt className="text-slate-600 dark:text-slate-400">Heartbeat</dt>
              <dd
                className={`tabular-nums ${now - Date.parse(w.heartbeatAt) > LATE_HEARTBEAT_MS ? "font-medium text-red-700 dark:text-red-400" : ""}`}
              >
                {ago(w.heartbeatAt, now)}
              </dd>
              <dt className="text-slate-600 dark:text-slate-400">Version</dt>
              <dd className="min-w-0 truncate">{w.version}</dd>
            </dl>
            {w.sandbox && <WorkerSandbox sandbox={w.sandbox} />}
            {w.state === "running" && (
              <Button variant="secondary" className="mt-3" onClick={() => setTarget(w)}>
                <PowerOff className="size-4" aria-hidden /> Drain
              </Button>
            )}
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={!!target}
        title="Drain this worker?"
        confirmLabel="Drain worker"
        danger
        busy={drain.isPending}
        onCancel={() => setTarget(null)}
        onConfirm={() => target && drain.mutate(target.id, { onSettled: () => setTarget(null) })}
      >
        <p>
          {target?.host} (pid {target?.pid}) finishes the {target?.activeJobs} job
          {target?.activeJobs === 1 ? "" : "s"} it is running and takes no new ones. The process stays up, shown as
          drained, until you restart or stop it.
        </p>
      </ConfirmDialog>
    </>
  );
}
