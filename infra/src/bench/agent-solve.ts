import type { Db } from "@fixloop/db";
import { agentTrajectoriesOf, type RunMode } from "@fixloop/contract";

/** What one solve cost and took, read back from Postgres (the run, step 4's output and the ledger). */
export interface ModeSolve {
  mode: RunMode;
  status: string;
  /**
   * Model requests that wrote the fix in step 4 (each agent turn is one; a single pass is one, more
   * with its repair rounds); step 4's reproduction-test request, the same in both modes, is left out.
   */
  turns: number;
  /** Tokens of those requests. */
  tokensIn: number;
  tokensOut: number;
  /** Time in the agent's tools (sandboxed commands included); 0 for a single pass. */
  toolMs: number;
  /** Step 4 alone, and the whole solve (request to the run's end). */
  step4Ms: number;
  wallMs: number;
  /** Every settled model request of the run, all steps. */
  costUsd: number;
  /** The product's own verdict: verified, and its kept reproduction test passes with the fix. */
  resolved: boolean;
  endedBy: string | null;
  /** Exit codes of the agent's sandboxed commands, in order (the reproduction fails, then passes). */
  runExits: (number | null)[];
}

export interface ModeSolveDeps {
  api: string;
  db: Db;
  headers: { cookie: string; origin: string };
  timeoutMs: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts a solve of `issueId` in `mode` through the API and waits for its run to end (cancelled at the timeout). */
export async function startAndWait(
  deps: ModeSolveDeps,
  issueId: string,
  mode: RunMode,
  modelId?: string,
): Promise<{ runId: string; wallMs: number }> {
  const t0 = performance.now();
  const headers = { ...deps.headers, "content-type": "application/json" };
  const res = await fetch(`${deps.api}/api/ai/generate-solution`, {
    method: "POST",
    headers,
    body: JSON.stringify({ issueId, mode, solveAgain: true, ...(modelId ? { modelId } : {}) }),
  });
  if (res.status !== 202) throw new Error(`generate-solution answered ${res.status}: ${await res.text()}`);
  const { runId } = (await res.json()) as { runId: string };
  const end = Date.now() + deps.timeoutMs;
  for (;;) {
    const run = await deps.db
      .selectFrom("solve_runs")
      .select("status")
      .where("id", "=", runId)
      .executeTakeFirstOrThrow();
    if (["completed", "failed", "cancelled"].includes(run.status)) break;
    if (Date.now() > end) {
      await fetch(`${deps.api}/api/runs/${runId}/cancel`, { method: "POST", headers });
      break;
    }
    await sleep(250);
  }
  return { runId, wallMs: performance.now() - t0 };
}

/** Turns, tokens, tool time and cost of a finished run, from its step 4 output (the trajectory) and the ledger. */
export async function measureRun(db: Db, runId: string, mode: RunMode, wallMs: number): Promise<ModeSolve> {
  const run = await db.selectFrom("solve_runs").selectAll().where("id", "=", runId).executeTakeFirstOrThrow();
  const step4 = await db
    .selectFrom("run_steps")
    .selectAll()
    .where("run_id", "=", runId)
    .where("step", "=", "generating")
    .executeTakeFirst();
  const ledger = await db
    .selectFrom("model_requests")
    .select(["step", "purpose", "tokens_in", "tokens_out", "cost_usd", "state"])
    .where("run_id", "=", runId)
    .execute();
  const spent = ledger.filter((r) => r.state === "settled" || r.state === "unconfirmed");
  const ofStep4 = spent.filter((r) => r.step === "generating" && r.purpose !== "reproduction test");
  const trajectories = agentTrajectoriesOf((step4?.output as { agent?: unknown } | null)?.agent);
  const solution = run.solution_id
    ? await db.selectFrom("solutions").select("metadata").where("id", "=", run.solution_id).executeTakeFirst()
    : undefined;
  const meta = (solution?.metadata ?? {}) as {
    unverified?: unknown;
    reproduction?: { status: string; passesWithSolution?: boolean | null } | null;
  };
  return {
    mode,
    status: run.status,
    turns: ofStep4.length,
    tokensIn: ofStep4.reduce((a, r) => a + r.tokens_in, 0),
    tokensOut: ofStep4.reduce((a, r) => a + r.tokens_out, 0),
    toolMs: trajectories.reduce((a, t) => a + t.toolMs, 0),
    step4Ms: step4?.duration_ms ?? 0,
    wallMs,
    costUsd: spent.reduce((a, r) => a + Number(r.cost_usd), 0),
    resolved:
      run.status === "completed" &&
      !!solution &&
      !meta.unverified &&
      meta.reproduction?.status === "kept" &&
      meta.reproduction.passesWithSolution === true,
    endedBy: trajectories[0]?.endedBy ?? null,
    runExits: trajectories.flatMap((t) => t.actions.filter((a) => a.tool === "run").map((a) => a.exitCode ?? null)),
  };
}
