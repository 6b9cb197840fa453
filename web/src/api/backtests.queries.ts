import { queryOptions } from "@tanstack/react-query";
import { api } from "./client";
import { unwrap } from "./errors";

export const backtestRoute = api.github.repositories[":owner"][":repo"].backtest;
export type BacktestView = Awaited<ReturnType<typeof fetchBacktest>>;
export type TrustCardView = NonNullable<BacktestView["card"]>;

const fetchBacktest = (owner: string, repo: string) => unwrap(backtestRoute.$get({ param: { owner, repo } }));
const active = (v: BacktestView | undefined) => v?.latest?.status === "queued" || v?.latest?.status === "running";

/** A repository's trust card and its running backtest; polled while one runs (its progress). */
export const backtestQuery = (owner: string, repo: string) =>
  queryOptions({
    queryKey: ["repositories", owner, repo, "backtest"],
    queryFn: () => fetchBacktest(owner, repo),
    refetchInterval: (q) => (active(q.state.data) ? 1_000 : false),
    retry: false,
  });

export const backtestRunning = active;

/** "2 of 3 (67%)". */
export const share = (n: number, of: number) => `${n} of ${of}${of ? ` (${Math.round((n / of) * 100)}%)` : ""}`;

/** The card's one line, as the repository and solve pages show it. */
export const trustLine = (c: TrustCardView) =>
  `Fixloop found the fixing files in the top 5 for ${c.foundAt5} of ${c.checked} past issue${c.checked === 1 ? "" : "s"} here`;

const usd = (n: number) => `$${n < 0.01 ? n.toFixed(4) : n.toFixed(2)}`;

/** The card's solve figures in words: verified k of n and the cost per solve, or plainly that none was requested. */
export const solveLine = (c: TrustCardView) => {
  if (!c.solve) return "Solves: not requested (this backtest only localized, no model was called)";
  if (c.solved === 0) return "Solves verified: none ran (see each issue for why)";
  return `Solves verified: ${c.solvesVerified} of ${c.solved} · cost per solve ${usd(c.solveCostUsd / c.solved)}`;
};

/** One past issue's solve, in words ("" when none was requested). */
export const issueSolveText = (i: TrustCardView["issues"][number]) => {
  const s = i.solve;
  if (!s) return "";
  const cost = s.runId ? ` (${usd(s.costUsd)})` : "";
  return s.verified ? ` · solve verified${cost}` : ` · solve not verified: ${s.detail}${cost}`;
};

/**
 * Said under a past issue whose solve's tests were set up offline because the setup network its
 * `.fixloop.yml` asks for was not granted, in the solve page's words; null otherwise.
 */
export const solveNetworkText = (i: TrustCardView["issues"][number]) =>
  i.solve?.networkNotGranted
    ? "This repository's setup wants network: its .fixloop.yml asks for network during setup. You do not own this repository, so this solve's setup ran offline."
    : null;
