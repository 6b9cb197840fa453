import { queryOptions } from "@tanstack/react-query";
import type { CandidateEvent } from "@fixloop/contract";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";

export const candidateSettingsQuery = () =>
  queryOptions({
    queryKey: ["settings", "candidates"],
    queryFn: () => unwrap(api.settings.candidates.$get()),
  });

/** A run's candidate rows, latest state per candidate, filled only by its SSE `candidate` events. */
export type CandidateRows = Record<number, CandidateEvent>;

export const runCandidatesQuery = (runId: string) =>
  queryOptions({
    queryKey: ["run-candidates", runId],
    queryFn: (): CandidateRows => ({}),
    initialData: {} as CandidateRows,
    staleTime: Infinity,
  });

export const applyCandidate = (rows: CandidateRows, e: CandidateEvent): CandidateRows => ({ ...rows, [e.n]: e });
