import { AGENT_END_TEXT, type AgentAction, type AgentEnd } from "@fixloop/contract";

const PRE =
  "max-h-64 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-2 font-mono text-xs dark:bg-slate-900";
const VERB: Record<string, string> = {
  search: "Searched",
  open_file: "Opened",
  list_dir: "Listed",
  run: "Ran",
  edit: "Edited",
  submit: "Submitted",
};

function Badge({ a }: { a: AgentAction }) {
  if (a.refused)
    return (
      <span className="rounded bg-red-100 px-1.5 text-xs font-medium text-red-800 dark:bg-red-950 dark:text-red-200">
        refused
      </span>
    );
  if (a.tool !== "run" || a.exitCode === undefined) return null;
  const ok = a.exitCode === 0;
  const text = a.timedOut ? "timed out" : `exit ${a.exitCode ?? "?"}`;
  return (
    <span
      className={`rounded px-1.5 text-xs font-medium ${ok ? "bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-200" : "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200"}`}
    >
      {text}
    </span>
  );
}

/** One agent's actions in order: what it did, on what, the command's exit code, its output's end, an edit's diff. */
export function AgentActions({ actions, ended }: { actions: AgentAction[]; ended?: { by: AgentEnd; turns: number } }) {
  return (
    <ol className="space-y-2" data-testid="agent-actions">
      {actions.map((a, i) => (
        <li key={i} className="rounded-lg border border-slate-200 p-2 text-sm dark:border-slate-800">
          <details>
            <summary className="flex cursor-pointer flex-wrap items-center gap-2">
              <span className="text-xs text-slate-600 dark:text-slate-400">Turn {a.turn}</span>
              <span className="font-medium">{VERB[a.tool] ?? a.tool}</span>
              <code className="min-w-0 break-all font-mono text-xs">{a.target}</code>
              <Badge a={a} />
            </summary>
            <div className="mt-2 space-y-2">
              {a.refused && <p className="text-red-800 dark:text-red-300">{a.refused}</p>}
              {a.diff ? <pre className={PRE}>{a.diff}</pre> : !a.refused && <pre className={PRE}>{a.output}</pre>}
            </div>
          </details>
        </li>
      ))}
      {ended && (
        <li className="text-sm font-medium" data-testid="agent-ended">
          Ended after {ended.turns} turn(s): {AGENT_END_TEXT[ended.by]}
        </li>
      )}
    </ol>
  );
}
