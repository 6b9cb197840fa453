import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { FlaskConical } from "lucide-react";
import { toast } from "sonner";
import { errorMessage, unwrap } from "../../api/errors";
import {
  backtestQuery,
  backtestRoute,
  backtestRunning,
  issueSolveText,
  share,
  solveLine,
  solveNetworkText,
  trustLine,
  type TrustCardView,
} from "../../api/backtests.queries";
import { Button } from "../../ui/ui";
import { getDefaultModel } from "../../shell/preferences";

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

/** "How would Fixloop have done here?": the repository's trust card and the form that measures it. */
export function TrustCard({ owner, repo }: { owner: string; repo: string }) {
  const qc = useQueryClient();
  const q = useQuery(backtestQuery(owner, repo));
  const [issues, setIssues] = useState("10");
  const [solve, setSolve] = useState(false);
  const start = useMutation({
    mutationFn: () => {
      const modelId = solve ? getDefaultModel() : null;
      const json = { issues: Number(issues), solve, ...(modelId ? { modelId } : {}) };
      return unwrap(backtestRoute.$post({ param: { owner, repo }, json }));
    },
    onSuccess: (body) => {
      qc.setQueryData(backtestQuery(owner, repo).queryKey, body);
      toast.success("Backtest started");
    },
    onError: (err) => toast.error(errorMessage(err, "Failed to start the backtest")),
  });
  const running = backtestRunning(q.data);
  const latest = q.data?.latest;
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    start.mutate();
  };
  const id = `${owner}-${repo}-backtest`;
  const form = !running && (
    <form onSubmit={onSubmit} className="mt-2 flex flex-wrap items-end gap-2">
      <label htmlFor={id} className="block">
        Past issues
        <input
          id={id}
          type="number"
          min={1}
          max={20}
          required
          value={issues}
          onChange={(e) => setIssues(e.target.value)}
          className="mt-1 block w-20 rounded-lg border border-slate-300 bg-white px-2 py-1.5 dark:border-slate-600 dark:bg-slate-950"
        />
      </label>
      <label className="flex items-center gap-2 py-1.5">
        <input type="checkbox" checked={solve} onChange={(e) => setSolve(e.target.checked)} />
        Also solve each one (your default model; counts as runs, within your caps)
      </label>
      <Button type="submit" variant="secondary" busy={start.isPending} aria-label={`Run backtest of ${owner}/${repo}`}>
        <FlaskConical className="size-4" aria-hidden /> Run backtest
      </Button>
    </form>
  );
  const failed = latest?.status === "failed" && (
    <p role="alert" className="mt-2 text-red-700 dark:text-red-400">
      {latest.error}
    </p>
  );
  // Not measured yet: a disclosure like the card's other settings, so the card stays short on phones.
  // While loading it is that same closed disclosure (most repositories are not measured), so the
  // form never flashes open and the card does not jump; opened meanwhile, it stays open.
  if (q.isPending || (q.data && !q.data.card && !running))
    return (
      <details className="mt-3 text-sm" aria-label="Trust card" aria-busy={q.isPending}>
        <summary className="cursor-pointer font-medium">How would Fixloop have done here?</summary>
        {q.isPending ? (
          <p role="status" className="mt-1 text-slate-600 dark:text-slate-400">
            Loading the trust card…
          </p>
        ) : (
          <p className="mt-1 text-slate-600 dark:text-slate-400">
            Not measured yet: Fixloop rewinds to each recently fixed issue&apos;s merged pull request and checks whether
            it would have found the files that pull request changed. No model is called unless you also ask for solves,
            which are checked against that pull request&apos;s own tests.
          </p>
        )}
        {failed}
        {!q.isPending && form}
      </details>
    );
  return (
    <section
      className="mt-3 rounded-lg border border-slate-200 p-3 text-sm dark:border-slate-700"
      aria-label="Trust card"
    >
      <h3 className="font-medium">How would Fixloop have done here?</h3>
      {q.isError && (
        <p role="alert" className="mt-1 text-red-700 dark:text-red-400">
          {errorMessage(q.error, "Failed to load the trust card")}
        </p>
      )}
      {q.data?.card && <CardFigures card={q.data.card} />}
      {running && latest && (
        <p role="status" className="mt-2 text-slate-700 dark:text-slate-300">
          Backtest running: {latest.issues.length} of {latest.found || latest.requested} past issues checked…
        </p>
      )}
      {failed}
      {form}
    </section>
  );
}

function CardFigures({ card }: { card: TrustCardView }) {
  if (card.checked === 0)
    return (
      <p className="mt-1 text-slate-600 dark:text-slate-400">
        No recently closed issue with a merged fixing pull request was found (measured{" "}
        {when(card.finishedAt ?? card.createdAt)}).
      </p>
    );
  return (
    <div className="mt-1">
      <p data-testid="trust-line">{trustLine(card)}</p>
      <p className="mt-1 text-slate-600 dark:text-slate-400">
        Top 1: {share(card.foundAt1, card.checked)} · Top 5: {share(card.foundAt5, card.checked)} · measured{" "}
        {when(card.finishedAt ?? card.createdAt)}
      </p>
      <p data-testid="trust-solves" className="mt-1">
        {solveLine(card)}
      </p>
      <details className="mt-1">
        <summary className="cursor-pointer">Issues checked</summary>
        <ul className="mt-1 space-y-1">
          {card.issues.map((i) => (
            <li key={i.issueNumber} className="break-words">
              #{i.issueNumber} {i.title} (fixed by #{i.pullNumber}):{" "}
              {i.error ?? (i.rank ? `found at rank ${i.rank}` : `not in the top 5 (${i.fixFiles.join(", ")})`)}
              {issueSolveText(i)}
              {solveNetworkText(i) && (
                <span className="block text-slate-600 dark:text-slate-400" data-testid="trust-solve-network">
                  {solveNetworkText(i)}
                </span>
              )}
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}
