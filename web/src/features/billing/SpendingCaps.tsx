import { useEffect, useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { MAX_COST_CAP_USD } from "@fixloop/contract";
import { api } from "../../api/client";
import { formatUsd, spendingCapsQuery } from "../../api/costs.queries";
import { errorMessage, unwrap } from "../../api/errors";
import { Button, Card, Spinner } from "../../ui/ui";

const INPUT =
  "w-40 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900";
const asText = (v: number | null) => (v === null ? "" : String(v));
const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { month: "short", day: "numeric" });

/** An empty field means "use the default"; anything else must be an amount from 0 to MAX_COST_CAP_USD. */
function parseCap(text: string): number | null | "invalid" {
  const t = text.trim();
  if (!t) return null;
  const n = Number(t);
  return Number.isFinite(n) && n >= 0 && n <= MAX_COST_CAP_USD ? n : "invalid";
}

/** Profile → Usage: the per-run and monthly spending caps, and what this period cost so far. */
export function SpendingCaps() {
  const qc = useQueryClient();
  const caps = useQuery(spendingCapsQuery());
  const [run, setRun] = useState("");
  const [monthly, setMonthly] = useState("");
  useEffect(() => {
    if (!caps.data) return;
    setRun(asText(caps.data.runCapUsd));
    setMonthly(asText(caps.data.monthlyCapUsd));
  }, [caps.data]);
  const save = useMutation({
    mutationFn: (body: { runCapUsd: number | null; monthlyCapUsd: number | null }) =>
      unwrap(api.costs.caps.$put({ json: body })),
    onSuccess: (data) => {
      qc.setQueryData(spendingCapsQuery().queryKey, data);
      toast.success("Spending caps saved");
    },
    onError: (err) => toast.error(errorMessage(err, "Failed to save the spending caps")),
  });
  if (caps.isPending) return <Spinner label="Loading spending caps..." />;
  if (!caps.data) return null;
  const d = caps.data;
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const r = parseCap(run);
    const m = parseCap(monthly);
    if (r === "invalid" || m === "invalid")
      return void toast.error(
        `A cap is an amount in USD from 0 to ${MAX_COST_CAP_USD.toLocaleString("en-US")} (leave it empty for the default)`,
      );
    save.mutate({ runCapUsd: r, monthlyCapUsd: m });
  };
  const fallback = (v: number | null) => (v === null ? "no cap" : formatUsd(v));
  return (
    <Card>
      <h2 className="font-semibold">Spending caps</h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        Model cost this period (since {day(d.periodStart)}):{" "}
        <span data-testid="period-spend">{formatUsd(d.spentThisPeriodUsd)}</span>. A run that would pass a cap stops
        before its model request; raise the cap and resume it.
      </p>
      {d.previousPeriod.spentUsd > 0 && (
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400" data-testid="previous-period-spend">
          Before this period, from {day(d.previousPeriod.start)}: {formatUsd(d.previousPeriod.spentUsd)} (a plan bought
          mid-period starts a new period).
        </p>
      )}
      <form onSubmit={onSubmit} className="mt-3 flex flex-wrap items-end gap-4">
        <div>
          <label htmlFor="run-cap" className="block text-sm font-medium">
            Per-run cap (USD)
          </label>
          <input
            id="run-cap"
            inputMode="decimal"
            className={INPUT}
            value={run}
            placeholder={fallback(d.defaults.runCapUsd)}
            onChange={(e) => setRun(e.target.value)}
          />
          <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">Default: {fallback(d.defaults.runCapUsd)}</p>
        </div>
        <div>
          <label htmlFor="monthly-cap" className="block text-sm font-medium">
            Monthly cap (USD)
          </label>
          <input
            id="monthly-cap"
            inputMode="decimal"
            className={INPUT}
            value={monthly}
            placeholder={fallback(d.defaults.monthlyCapUsd)}
            onChange={(e) => setMonthly(e.target.value)}
          />
          <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
            Default: {fallback(d.defaults.monthlyCapUsd)}
          </p>
        </div>
        <Button type="submit" busy={save.isPending}>
          Save caps
        </Button>
      </form>
    </Card>
  );
}
