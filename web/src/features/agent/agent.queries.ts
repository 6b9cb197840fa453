import { queryOptions } from "@tanstack/react-query";
import type { AgentAction, AgentEvent } from "@fixloop/contract";

/** A run's live agent trajectory per candidate, filled only by its SSE `agent` events (replayed on reload). */
export interface AgentLive {
  actions: Record<number, (AgentAction & { seq: number })[]>;
  ended: Record<number, NonNullable<AgentEvent["ended"]>>;
}

export const runAgentQuery = (runId: string) =>
  queryOptions({
    queryKey: ["run-agent", runId],
    queryFn: (): AgentLive => ({ actions: {}, ended: {} }),
    initialData: { actions: {}, ended: {} } as AgentLive,
    staleTime: Infinity,
  });

/** One event into the trajectory; a replayed event (same candidate and position) is kept once. */
export function applyAgent(live: AgentLive, e: AgentEvent): AgentLive {
  if (e.ended) return { ...live, ended: { ...live.ended, [e.n]: e.ended } };
  if (!e.action) return live;
  const list = live.actions[e.n] ?? [];
  if (list.some((a) => a.seq === e.seq)) return live;
  return { ...live, actions: { ...live.actions, [e.n]: [...list, { ...e.action, seq: e.seq }] } };
}
