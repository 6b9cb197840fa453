import { useQuery } from "@tanstack/react-query";
import { backtestQuery, solveLine, trustLine } from "../../api/backtests.queries";

/**
 * The repository's trust card in one line, when it was measured. Nothing for someone else's
 * repository solved in the user's fork (`foreign`): it is not among the user's repositories, so it
 * has no card, and asking would only log a 404 on every such solve page.
 */
export function TrustLine({ fullName, foreign = false }: { fullName: string; foreign?: boolean }) {
  const [owner = "", repo = ""] = fullName.split("/");
  const q = useQuery({ ...backtestQuery(owner, repo), refetchInterval: false, enabled: !foreign });
  const card = q.data?.card;
  if (!card || card.checked === 0) return null;
  return (
    <p data-testid="trust-line" className="mt-1 text-xs text-slate-600 dark:text-slate-400">
      {trustLine(card)}. {solveLine(card)}
    </p>
  );
}
