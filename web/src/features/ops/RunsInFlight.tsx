import { useState } from "react";
import { XCircle } from "lucide-react";
import { ConfirmDialog } from "../../ui/ConfirmDialog";
import { Badge, Button, Card, EmptyState } from "../../ui/ui";
import { useCancelRun } from "./ops.actions";
import { ago } from "./ops.format";
import type { OpsRun, OpsSnapshot } from "./ops.queries";

/** The users with the most unfinished runs. */
export function BusiestUsers({ users }: { users: OpsSnapshot["users"] }) {
  if (!users.length) return <EmptyState title="No user has a run waiting or running" />;
  return (
    <Card>
      <table className="w-full text-sm">
        <thead className="text-left text-slate-600 dark:text-slate-400">
          <tr>
            <th className="py-1 font-medium">User</th>
            <th className="py-1 text-right font-medium">Running</th>
            <th className="py-1 text-right font-medium">Waiting</th>
          </tr>
        </thead>
        <tbody>
          {users.map((u) => (
            <tr key={u.userId} className="border-t border-slate-100 dark:border-slate-800">
              <td className="max-w-0 truncate py-1.5">{u.username}</td>
              <td className="py-1.5 text-right tabular-nums">{u.active}</td>
              <td className="py-1.5 text-right tabular-nums">{u.waiting}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}

/** Unfinished runs, oldest first, each with a cancel action. */
export function RunsInFlight({ runs, now }: { runs: OpsRun[]; now: number }) {
  const [target, setTarget] = useState<OpsRun | null>(null);
  const cancel = useCancelRun();
  if (!runs.length) return <EmptyState title="No runs are waiting or running" />;
  return (
    <>
      <Card className="py-2">
        <ul className="divide-y divide-slate-100 text-sm dark:divide-slate-800">
          {runs.map((r) => (
            <li key={r.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <div className="min-w-0">
                <p className="truncate">
                  <span className="font-medium">{r.username}</span> · {r.kind}
                  {r.currentStep ? ` · ${r.currentStep}` : ""}
                </p>
                <p className="text-xs text-slate-600 dark:text-slate-400">
                  queued {ago(r.createdAt, now)} · <code>{r.id.slice(0, 8)}</code>
                </p>
              </div>
              <span className="flex items-center gap-2">
                <Badge tone={r.status === "running" ? "blue" : "gray"}>{r.cancelling ? "cancelling" : r.status}</Badge>
                {!r.cancelling && (
                  <Button variant="ghost" onClick={() => setTarget(r)} aria-label={`Cancel run ${r.id.slice(0, 8)}`}>
                    <XCircle className="size-4" aria-hidden /> Cancel
                  </Button>
                )}
              </span>
            </li>
          ))}
        </ul>
      </Card>
      <ConfirmDialog
        open={!!target}
        title="Cancel this run?"
        confirmLabel="Cancel run"
        cancelLabel="Keep it"
        danger
        busy={cancel.isPending}
        onCancel={() => setTarget(null)}
        onConfirm={() => target && cancel.mutate(target.id, { onSettled: () => setTarget(null) })}
      >
        <p>
          {target?.username}&apos;s {target?.kind} run stops now ({target?.status}); a queued run gives its quota unit
          back.
        </p>
      </ConfirmDialog>
    </>
  );
}
