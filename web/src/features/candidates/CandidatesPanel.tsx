import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import type { CandidateEvidence } from "@fixloop/contract";
import { api } from "../../api/client";
import { errorMessage, unwrap } from "../../api/errors";
import { Button, Card } from "../../ui/ui";

interface CandidateView {
  n: number;
  variation: string;
  rank: number;
  rankReason: string;
  duplicates: number[];
  evidence: CandidateEvidence;
}
interface CandidatesView {
  winner: number;
  selected: number;
  reason: string;
  requested: number;
  candidates: CandidateView[];
  switches: { from: number; to: number; at: string }[];
}

function evidenceBadges(e: CandidateEvidence): string {
  if (e.blocked) return "Blocked by policy";
  if (!e.testsRan)
    return e.status === "skipped" ? "Tests not run" : `Tests did not finish${e.reason ? `: ${e.reason}` : ""}`;
  const regressions = e.regressions.length ? `${e.regressions.length} regression(s)` : "No regressions";
  const repro = e.reproduction
    ? `Reproduction ${e.reproduction.status === "fixed" ? "fixed" : e.reproduction.status === "not-run" ? "not run" : "still fails"} · `
    : "";
  return `${repro}${regressions} · fixes ${e.fixed.length} test(s) · ${e.votes} vote(s) · ${e.changedLines} changed line(s)`;
}

/** Every candidate with its evidence and rank, why the winner won, and a switch while the solution is pending. */
export function CandidatesPanel({
  solutionId,
  candidates: set,
  pending,
  onSwitched,
}: {
  solutionId: string;
  candidates: CandidatesView;
  pending: boolean;
  onSwitched: () => void;
}) {
  const qc = useQueryClient();
  const select = useMutation({
    mutationFn: (n: number) =>
      unwrap(api.validations[":id"].candidates[":n"].select.$post({ param: { id: solutionId, n: String(n) } })),
    onSuccess: (_d, n) => {
      toast.success(`The solution now carries candidate ${n}`);
      void qc.invalidateQueries();
      onSwitched();
    },
    onError: (err) => toast.error(errorMessage(err, "Failed to switch the candidate")),
  });
  return (
    <Card>
      <h2 className="font-semibold">
        Candidates ({set.candidates.length} distinct of {set.requested})
      </h2>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300" data-testid="candidates-reason">
        {set.reason}
      </p>
      <ul className="mt-2 divide-y divide-slate-200 dark:divide-slate-700">
        {set.candidates.map((c) => (
          <li
            key={c.n}
            className="flex flex-col gap-2 py-2 text-sm sm:flex-row sm:items-center"
            data-testid={`candidate-${c.n}`}
          >
            <div className="min-w-0 flex-1">
              <p className="font-medium">
                Candidate {c.n} · rank {c.rank}
                {c.n === set.winner && " · winner"}
                {c.n === set.selected && " · in the solution"}
              </p>
              <p className="text-slate-700 dark:text-slate-300">{evidenceBadges(c.evidence)}</p>
              <p className="break-words text-xs text-slate-600 dark:text-slate-400">
                {c.rankReason} ({c.variation}
                {c.duplicates.length ? `; candidates ${c.duplicates.join(", ")} were the same patch` : ""})
              </p>
            </div>
            {pending && c.n !== set.selected && (
              <Button variant="secondary" onClick={() => select.mutate(c.n)} busy={select.isPending}>
                Use candidate {c.n}
              </Button>
            )}
          </li>
        ))}
      </ul>
      {set.switches.length > 0 && (
        <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
          Switched: {set.switches.map((s) => `${s.from} → ${s.to}`).join(", ")}
        </p>
      )}
    </Card>
  );
}
