import { queryOptions } from "@tanstack/react-query";
import { request } from "./errors";
import type { Run } from "./types";

export const runQuery = (id: string) =>
  queryOptions({ queryKey: ["runs", id], queryFn: () => request<{ run: Run } | Run>(`/runs/${encodeURIComponent(id)}`).then(asRun) });

/** Accepts both `{run}` and a bare run body. */
export function asRun(body: { run: Run } | Run): Run {
  return "run" in body ? body.run : body;
}
