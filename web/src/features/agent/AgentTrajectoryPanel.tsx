import { useQuery } from "@tanstack/react-query";
import { runPromptQuery } from "../../api/costs.queries";
import { AgentActions } from "./AgentActions";

/** A finished Investigate run's trajectory, beside "What the model saw" (nothing for a single pass). */
export function AgentTrajectoryPanel({ runId }: { runId: string }) {
  const q = useQuery(runPromptQuery(runId));
  const agents = q.data?.agent ?? [];
  if (!agents.length) return null;
  return (
    <section className="rounded-xl border border-slate-200 p-4 dark:border-slate-800" aria-labelledby="agent-title">
      <h2 id="agent-title" className="mb-3 font-semibold">
        Agent trajectory
      </h2>
      {agents.map((t) => (
        <div key={t.n} className="mb-3">
          <p className="mb-2 text-sm text-slate-700 dark:text-slate-300">
            {agents.length > 1 ? `Candidate ${t.n}: ` : ""}
            {t.turns} turn(s), {t.tokensIn + t.tokensOut} tokens, tools {(t.toolMs / 1000).toFixed(1)} s of{" "}
            {(t.wallMs / 1000).toFixed(1)} s
          </p>
          <AgentActions actions={t.actions} ended={{ by: t.endedBy, turns: t.turns }} />
        </div>
      ))}
    </section>
  );
}
