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
