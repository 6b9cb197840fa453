import { useQuery } from "@tanstack/react-query";
import { runAgentQuery } from "./agent.queries";
import { AgentActions } from "./AgentActions";

/** The Investigate agent's actions as they happen (each candidate's agent apart); nothing for a single pass. */
export function AgentTrajectoryLive({ runId }: { runId: string }) {
  const live = useQuery(runAgentQuery(runId)).data;
  const agents = Object.keys(live.actions).map(Number);
  if (!agents.length) return null;
  return (
    <section
      className="rounded-xl border border-slate-200 p-4 dark:border-slate-800"
      aria-labelledby="agent-live-title"
    >
      <h2 id="agent-live-title" className="mb-3 font-semibold">
        Agent trajectory
      </h2>
      {agents.map((n) => (
        <div key={n} className="mb-3">
          {agents.length > 1 && <h3 className="mb-1 text-sm font-medium">Candidate {n}</h3>}
          <AgentActions actions={live.actions[n] ?? []} ended={live.ended[n]} />
        </div>
      ))}
    </section>
  );
}
