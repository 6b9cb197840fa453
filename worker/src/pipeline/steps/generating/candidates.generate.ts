import { runCandidatesOf, type CandidateEvent, type GeneratedCandidate, type StepOutput } from "@fixloop/contract";
import { CostCapExceeded } from "../../run.budget";
import { RunCancelled } from "../../run.errors";
import type { StepEnv, StepOutcome } from "../step";
import { dedupeCandidates } from "./candidates.dedup";

/** How one candidate's request differs from the others: sampling temperature and the order of the files shown. */
export interface CandidateVariant {
  n: number;
  of: number;
  temperature?: number;
  reverseFiles: boolean;
  label: string;
  note: string;
}

const SPREAD: { temperature?: number; reverseFiles: boolean }[] = [
  { reverseFiles: false },
  { temperature: 0.7, reverseFiles: true },
  { temperature: 1.0, reverseFiles: false },
  { temperature: 0.5, reverseFiles: true },
];

export function candidateVariants(of: number): CandidateVariant[] {
  return SPREAD.slice(0, of).map((s, i) => ({
    ...s,
    n: i + 1,
    of,
    label: `temperature ${s.temperature ?? 0.2}, files in ${s.reverseFiles ? "reverse" : "ranked"} order`,
    note: `Candidate ${i + 1} of ${of}: this is one of several independent attempts; write the fix you judge best.`,
  }));
}

const now = () => new Date().toISOString();

/**
 * Step 4 with N candidates (the run's `candidates`, 1 by default: one request as before). The
 * requests go out together, each reserved against the caps on its own; a candidate that fails
 * (or does not fit a cap) is left out with a warning unless every one fails. Identical patches
 * (normalised) are folded into one candidate with more votes. The step's own fields are the first
 * surviving candidate's; its cost is all of theirs.
 */
export async function generateCandidates(
  env: StepEnv,
  generate: (variant?: CandidateVariant) => Promise<StepOutcome<StepOutput<"generating">>>,
): Promise<StepOutcome<StepOutput<"generating">>> {
  const of = runCandidatesOf(env.run.input);
  if (of === 1) return generate();
  const variants = candidateVariants(of);
  const settled = await Promise.allSettled(variants.map((v) => generate(v)));
  if (env.signal.aborted) throw new RunCancelled();
  const made = settled.flatMap((s, i) =>
    s.status === "fulfilled" ? [{ r: s.value, v: variants[i] as CandidateVariant }] : [],
  );
  const lead = made[0];
  if (!lead) throw (settled[0] as PromiseRejectedResult).reason;
  const warnings = settled.flatMap((s, i) =>
    s.status === "rejected" ? [`Candidate ${i + 1} was not generated: ${reasonOf(s.reason)}`] : [],
  );
  const generated: GeneratedCandidate[] = made.map(({ r, v }) => ({
    n: v.n,
    variation: v.label,
    analysis: r.output.analysis,
    proposedSolution: r.output.proposedSolution,
    confidence: r.output.confidence,
    filesChanged: r.output.filesChanged,
    duplicates: [],
  }));
  const distinct = dedupeCandidates(generated);
  for (const c of generated) {
    const folded = distinct.find((d) => d.duplicates.includes(c.n));
    const e: CandidateEvent = folded
      ? { type: "candidate", n: c.n, state: "duplicate", summary: `Same patch as candidate ${folded.n}`, at: now() }
      : {
          type: "candidate",
          n: c.n,
          state: "generated",
          summary: `${c.variation}: ${c.filesChanged.length} file(s)`,
          at: now(),
        };
    await env.onTestsEvent?.(e);
  }
  for (const s of settled.flatMap((s, i) => (s.status === "rejected" ? [i + 1] : [])))
    await env.onTestsEvent?.({ type: "candidate", n: s, state: "failed", summary: "Not generated", at: now() });
  const sum = (f: (o: StepOutput<"generating">) => number) => made.reduce((t, m) => t + f(m.r.output), 0);
  const totals = {
    tokensIn: sum((o) => o.tokensIn),
    tokensOut: sum((o) => o.tokensOut),
    costUsd: sum((o) => o.costUsd),
    attempts: sum((o) => o.attempts),
  };
  const info = [
    ...lead.r.detail.info,
    `${of} candidates asked for, ${made.length} generated, ${distinct.length} distinct after removing identical patches`,
    `All candidates: ${totals.tokensIn} tokens in, ${totals.tokensOut} out; cost $${totals.costUsd.toFixed(4)}`,
  ];
  const agent = made.flatMap((m) => m.r.output.agent ?? []);
  return {
    output: { ...lead.r.output, ...totals, candidates: distinct, ...(agent.length ? { agent } : {}) },
    detail: { ...lead.r.detail, info, warnings: [...lead.r.detail.warnings, ...warnings] },
    tokensIn: totals.tokensIn,
    tokensOut: totals.tokensOut,
    costUsd: totals.costUsd,
  };
}

function reasonOf(err: unknown): string {
  if (err instanceof CostCapExceeded) return err.message;
  return err instanceof Error ? err.message : String(err);
}
