import { useEffect, useState, type ReactNode } from "react";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { ExternalLink } from "lucide-react";
import { ApiError } from "../../api/errors";
import { Card, EmptyState, PageHeader, Spinner, buttonClass } from "../../ui/ui";
import { ago, formatDuration } from "./ops.format";
import { useLiveOps } from "./ops.live";
import { opsQuery, type OpsSnapshot } from "./ops.queries";
import { QueueCard } from "./QueueCard";
import { BusiestUsers, RunsInFlight } from "./RunsInFlight";
import { WorkersList } from "./WorkersList";
import { LostWorkers } from "./LostWorkers";

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="mt-8">
      <h2 className="mb-3 text-lg font-semibold">{title}</h2>
      {children}
    </section>
  );
}

function StepDurations({ steps, run }: { steps: OpsSnapshot["steps"]; run: OpsSnapshot["runDurationMs"] }) {
  const rows = [...steps.map((s) => ({ name: s.step, ...s })), ...(run ? [{ name: "whole run", ...run }] : [])];
  if (!rows.length) return <EmptyState title="No step finished in the last 24 hours" />;
  return (
    <Card>
      <table className="w-full text-sm">
        <thead className="text-left text-slate-600 dark:text-slate-400">
          <tr>
            <th className="py-1 font-medium">Step</th>
            {["p50", "p95", "p99"].map((p) => (
              <th key={p} className="py-1 text-right font-medium">
                {p}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.name} className="border-t border-slate-100 dark:border-slate-800">
              <td className="py-1.5">
                {r.name} <span className="text-xs text-slate-600 dark:text-slate-400">({r.count})</span>
              </td>
              <td className="py-1.5 text-right tabular-nums">{formatDuration(r.p50)}</td>
              <td className="py-1.5 text-right tabular-nums">{formatDuration(r.p95)}</td>
              <td className="py-1.5 text-right tabular-nums">{formatDuration(r.p99)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}

/** Wall-clock time, refreshed each second, for ages and uptimes. */
function useNow(): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  return now;
}

/** `/ops`: queues, throughput, durations, worker processes and busiest users, live; admins only. */
export function OpsPage() {
  const q = useQuery(opsQuery());
  const live = useLiveOps(q.isSuccess);
  const now = useNow();
  if (q.isPending) return <Spinner label="Loading operations..." />;
  if (q.isError) {
    const denied = q.error instanceof ApiError && (q.error.status === 403 || q.error.status === 404);
    return (
      <div role="alert">
        <EmptyState title={denied ? "Page not found" : "Failed to load operations"}>
          <Link to="/dashboard" className={buttonClass("secondary")}>
            Back to Dashboard
          </Link>
        </EmptyState>
      </div>
    );
  }
  const s = q.data;
  const served = new Set(s.workers.filter((w) => w.state === "running").flatMap((w) => w.queues));
  return (
    <>
      <PageHeader title="Operations">
        <Link to="/ops/github-app" className={buttonClass("secondary")}>
          GitHub App
        </Link>
        <a href="/admin/queues" className={buttonClass("secondary")}>
          <ExternalLink className="size-4" aria-hidden /> Job details (bull-board)
        </a>
      </PageHeader>
      <p className="-mt-4 mb-2 flex items-center gap-2 text-sm text-slate-600 dark:text-slate-400" role="status">
        <span className={`size-2 rounded-full ${live ? "bg-green-500" : "bg-slate-400"}`} aria-hidden />
        {live ? "Live" : "Reconnecting…"} · updated {ago(s.generatedAt, now)}
      </p>
      <Section title="Queues">
        <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          {s.queues.map((queue) => (
            <QueueCard key={queue.name} queue={queue} served={served.has(queue.name)} />
          ))}
        </div>
      </Section>
      <Section title="Worker processes">
        <WorkersList workers={s.workers} now={now} />
        <LostWorkers workers={s.lostWorkers} now={now} />
      </Section>
      <div className="grid gap-x-8 lg:grid-cols-2">
        <Section title="Duration by pipeline step (24 h)">
          <StepDurations steps={s.steps} run={s.runDurationMs} />
        </Section>
        <Section title="Busiest users">
          <BusiestUsers users={s.users} />
        </Section>
      </div>
      <Section title="Runs waiting or running">
        <RunsInFlight runs={s.runs} now={now} />
      </Section>
    </>
  );
}
