import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { ChevronDown, ShieldAlert } from "lucide-react";
import { formatUsd, runPromptQuery, type RunPrompt } from "../../api/costs.queries";
import { errorMessage } from "../../api/errors";
import { Spinner } from "../../ui/ui";

const PRE = "max-h-96 overflow-auto whitespace-pre-wrap rounded-lg bg-slate-50 p-3 font-mono text-xs dark:bg-slate-900";

/** "What the model saw": the exact prompt of the run, what cleaning took out of the issue, and flagged instruction-like text. Loaded when opened. */
export function ModelSawPanel({ runId }: { runId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <section className="rounded-xl border border-slate-200 dark:border-slate-800" aria-labelledby="model-saw-title">
      <h2 id="model-saw-title">
        <button
          type="button"
          aria-expanded={open}
          aria-controls="model-saw-body"
          onClick={() => setOpen((v) => !v)}
          className="flex w-full items-center justify-between p-4 text-left font-semibold"
        >
          What the model saw
          <ChevronDown className={`size-4 transition-transform ${open ? "rotate-180" : ""}`} aria-hidden />
        </button>
      </h2>
      {open && (
        <div id="model-saw-body" className="space-y-4 border-t border-slate-200 p-4 text-sm dark:border-slate-800">
          <PromptBody runId={runId} />
        </div>
      )}
    </section>
  );
}

function PromptBody({ runId }: { runId: string }) {
  const q = useQuery(runPromptQuery(runId));
  if (q.isPending) return <Spinner label="Loading the prompt..." />;
  if (q.isError) return <p role="alert">{errorMessage(q.error, "The prompt could not be loaded")}</p>;
  const p = q.data.prompt;
  if (!p)
    return (
      <>
        <p>No prompt was recorded for this run.</p>
        <ModelRequests requests={q.data.requests} />
      </>
    );
  const r = p.removed;
  const nothingRemoved = !r.hiddenCharacters.length && !r.htmlComments.length && !r.fenceTags.length;
  return (
    <>
      <p className="text-slate-700 dark:text-slate-300">
        Sent to {p.model.name} ({p.model.provider}); estimated {p.estimate.tokensIn} tokens in, about{" "}
        {formatUsd(p.estimate.usd)}.
      </p>
      <ModelRequests requests={q.data.requests} />
      {p.flags.length > 0 && (
        <div
          role="note"
          data-testid="instruction-flags"
          className="rounded-lg border border-amber-300 bg-amber-50 p-3 dark:border-amber-800 dark:bg-amber-950/40"
        >
          <p className="flex items-center gap-2 font-medium">
            <ShieldAlert className="size-4" aria-hidden /> Instruction-like text in the issue (passed to the model as
            data only)
          </p>
          <ul className="mt-2 list-disc space-y-1 pl-5">
            {p.flags.map((f, i) => (
              <li key={i}>
                <span className="font-medium">{f.label}:</span> <q className="font-mono text-xs">{f.excerpt}</q>
              </li>
            ))}
          </ul>
        </div>
      )}
      <div data-testid="cleaning-report">
        <h3 className="font-medium">Removed from the issue before prompting</h3>
        {nothingRemoved ? (
          <p className="text-slate-600 dark:text-slate-400">
            Nothing: the issue had no hidden characters, HTML comments or fence tags.
          </p>
        ) : (
          <ul className="mt-1 list-disc space-y-1 pl-5">
            {r.hiddenCharacters.length > 0 && (
              <li>Hidden characters: {r.hiddenCharacters.map((h) => `${h.codePoint} ×${h.count}`).join(", ")}</li>
            )}
            {r.htmlComments.map((c, i) => (
              <li key={`c${i}`}>
                HTML comment: <code className="font-mono text-xs">{c}</code>
              </li>
            ))}
            {r.fenceTags.map((t, i) => (
              <li key={`f${i}`}>
                Fence tag (neutralized): <code className="font-mono text-xs">{t}</code>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div>
        <h3 className="font-medium">Files and why they were chosen</h3>
        <ul className="mt-1 list-disc space-y-1 pl-5">
          {p.files.map((f) => (
            <li key={f.path}>
              <code className="font-mono text-xs">{f.path}</code>: {f.reasons.join("; ") || "ranked relevant"}
            </li>
          ))}
        </ul>
      </div>
      <div>
        <h3 className="font-medium">System message</h3>
        <pre className={PRE} data-testid="prompt-system" tabIndex={0}>
          {p.system}
        </pre>
      </div>
      <div>
        <h3 className="font-medium">User message (issue, repository map, files)</h3>
        <pre className={PRE} data-testid="prompt-user" tabIndex={0}>
          {p.user}
        </pre>
      </div>
    </>
  );
}

type ModelRequestRow = RunPrompt["requests"][number];

/** What a request's ledger state means for its cost, when it is not simply the provider's figure. */
const STATE_NOTES: Record<string, string> = {
  unconfirmed: "usage unconfirmed: worst case charged",
  released: "not sent: nothing charged",
  reserved: "in flight: worst case held",
};

/** The ledger's outcome ("<answer>: <note>") as a reason: the note, with the answer unless it was a plain "ok". */
function outcomeReason(outcome: string): string {
  const at = outcome.indexOf(": ");
  if (at < 0) return outcome;
  const answer = outcome.slice(0, at);
  const note = outcome.slice(at + 2);
  return answer === "ok" ? note : `${note} (${answer})`;
}

/** Every request the run sent, from the ledger (requests of failed attempts and runs included, each HTTP attempt its own row). */
function ModelRequests({ requests }: { requests: ModelRequestRow[] }) {
  if (!requests.length)
    return <p className="text-slate-600 dark:text-slate-400">No model request was recorded for this run.</p>;
  const total = requests.reduce((s, r) => s + r.costUsd, 0);
  const cell = "px-2 py-1.5 text-left";
  return (
    <div>
      <h3 className="font-medium">Model requests</h3>
      <div className="mt-1 overflow-x-auto">
        <table data-testid="model-requests" className="w-full min-w-[28rem] text-xs">
          <thead className="text-slate-600 dark:text-slate-400">
            <tr>
              <th scope="col" className={cell}>
                Step
              </th>
              <th scope="col" className={cell}>
                Purpose
              </th>
              <th scope="col" className={`${cell} text-right`}>
                Tokens in / out
              </th>
              <th scope="col" className={`${cell} text-right`}>
                Cost
              </th>
              <th scope="col" className={`${cell} text-right`}>
                Time
              </th>
            </tr>
          </thead>
          <tbody>
            {requests.map((r, i) => (
              <tr key={i} className="border-t border-slate-200 dark:border-slate-800">
                <td className={cell}>{r.step}</td>
                <td className={cell}>
                  {r.purpose}
                  {r.attempts > 1 && (
                    <span className="text-slate-600 dark:text-slate-400"> (attempt {r.attempts})</span>
                  )}
                  {r.state !== "settled" && (
                    <span className="text-slate-600 dark:text-slate-400"> · {STATE_NOTES[r.state] ?? r.state}</span>
                  )}
                  {r.state === "unconfirmed" && r.outcome && (
                    <span data-testid="request-outcome" className="block text-slate-600 dark:text-slate-400">
                      Why: {outcomeReason(r.outcome)}
                    </span>
                  )}
                </td>
                <td className={`${cell} text-right tabular-nums`}>
                  {r.tokensIn.toLocaleString()} / {r.tokensOut.toLocaleString()}
                </td>
                <td className={`${cell} text-right tabular-nums`}>{formatUsd(r.costUsd)}</td>
                <td className={`${cell} text-right tabular-nums`}>{(r.durationMs / 1000).toFixed(1)} s</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr className="border-t border-slate-300 font-medium dark:border-slate-700">
              <td className={cell} colSpan={3}>
                {requests.length} request{requests.length === 1 ? "" : "s"}
              </td>
              <td className={`${cell} text-right tabular-nums`}>{formatUsd(total)}</td>
              <td className={cell} />
            </tr>
          </tfoot>
        </table>
      </div>
    </div>
  );
}
