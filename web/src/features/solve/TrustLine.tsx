import { useQuery } from "@tanstack/react-query";
import { backtestQuery, solveLine, trustLine } from "../../api/backtests.queries";

/** The repository's trust card in one line, when it was measured (nothing for a repository the user has not synced). */
export function TrustLine({ fullName }: { fullName: string }) {
  const [owner = "", repo = ""] = fullName.split("/");
  const q = useQuery({ ...backtestQuery(owner, repo), refetchInterval: false });
  const card = q.data?.card;
  if (!card || card.checked === 0) return null;
  return (
    <p data-testid="trust-line" className="mt-1 text-xs text-slate-600 dark:text-slate-400">
      {trustLine(card)}. {solveLine(card)}
    </p>
  );
}
