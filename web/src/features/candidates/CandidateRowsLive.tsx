import { useQuery } from "@tanstack/react-query";
import { Card } from "../../ui/ui";
import { runCandidatesQuery } from "./candidates.queries";

const STATE_LABEL = {
  generated: "Generated",
  duplicate: "Same as another",
  testing: "Testing…",
  tested: "Tested",
  failed: "Not generated",
} as const;

/** One row per candidate of a run, live from its `candidate` events (nothing for a single attempt). */
export function CandidateRowsLive({ runId }: { runId: string }) {
  const rows = useQuery(runCandidatesQuery(runId)).data;
  const list = Object.values(rows).sort((a, b) => a.n - b.n);
  if (!list.length) return null;
  return (
    <Card>
      <h2 className="font-semibold">Candidates</h2>
      <ul className="mt-2 divide-y divide-slate-200 dark:divide-slate-700" data-testid="candidate-rows">
        {list.map((r) => (
          <li
            key={r.n}
            className="flex flex-col gap-1 py-2 text-sm sm:flex-row sm:gap-3"
            data-testid={`candidate-row-${r.n}`}
          >
            <span className="font-medium sm:w-28 sm:shrink-0">Candidate {r.n}</span>
            <span className="sm:w-36 sm:shrink-0">
              {STATE_LABEL[r.state]}
              {r.rank === 1 && " · winner"}
            </span>
            <span className="min-w-0 break-words text-slate-700 dark:text-slate-300">{r.summary}</span>
          </li>
        ))}
      </ul>
    </Card>
  );
}
