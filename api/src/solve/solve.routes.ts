import { Hono } from "hono";
import { z } from "zod";
import {
  domain,
  promptRecordOf,
  agentTrajectoriesOf,
  DEFAULT_MODEL_ID,
  SetupNetworkChoice,
  CandidateCount,
  RunMode,
  BaseBranch,
  listModels,
  modelsConfigFromEnv,
} from "@fixloop/contract";
import { runs, runTestLogs, steps } from "@fixloop/db";
import { currentUsagePeriod } from "@fixloop/db";
import type { AppEnv } from "../deps";
import { requireUser } from "../auth/auth.middleware";
import { validate } from "../http/validate";
import { presentSolution } from "../solutions/solutions.present";
import { findOwnedSolution } from "../solutions/solutions.owned";
import { presentRun, queuedNoteOf, runActionsOf } from "./runs.present";
import { runModelRequests } from "@fixloop/db";
import { acquireStreamSlot } from "./sse.limit";
import { streamRunEvents } from "./runs.sse";
import { solveErrors } from "./solve.errors";
import { startRun } from "./solve.service";
import { cancelRun } from "./solve.cancel";
import { resumeRun } from "./solve.resume";
import { waitForRunEnd } from "./solve.wait";

export const GenerateSolutionBody = z.object({
  issueId: z.string().min(1).max(100),
  modelId: z.string().min(1).max(200).default(DEFAULT_MODEL_ID),
  /** This repository's setup wants network (`.fixloop.yml`): allow once / always / never (the default). */
  setupNetwork: SetupNetworkChoice.optional(),
  /** Candidate patches to generate (1–4); the user's default from Settings when absent. */
  candidates: CandidateCount.optional(),
  /** `single` (one request) or `investigate` (the agent explores, runs and edits first); the user's default when absent. */
  mode: RunMode.optional(),
  /** Branch the workspace, tests and pull request use; the repository's default branch when absent. */
  baseBranch: BaseBranch.optional(),
  /** Solve although a solution of the issue awaits review; without it such a request is refused (409 `solve.awaiting_review`). */
  solveAgain: z.boolean().optional(),
});
export type GenerateSolutionBody = z.infer<typeof GenerateSolutionBody>;
export const GenerateSolutionQuery = z.object({ wait: z.enum(["true", "false", "1", "0"]).optional() });
const RunParam = z.object({ id: z.string().min(1).max(100) });

/** Longest a `?wait=true` request follows its run before answering 202 with the run id. */
const WAIT_LIMIT_MS = 10 * 60_000;

export const solveRoutes = new Hono<AppEnv>()
  .get("/ai/models", requireUser, async (c) => {
    const { db, env } = c.var.deps;
    const { plan } = await currentUsagePeriod(db, c.var.user.id);
    const sandbox = env.SANDBOX_SERVICES.includes("models");
    const allModels = listModels(modelsConfigFromEnv(env)).map((m) => ({
      id: m.id,
      name: m.name,
      description: m.description,
      provider: m.provider,
      allowed: domain.planAllowsProvider(plan, m.provider),
      sandbox,
      isDefault: m.id === DEFAULT_MODEL_ID,
    }));
    return c.json({ allModels, defaultModelId: DEFAULT_MODEL_ID, plan });
  })
  .post(
    "/ai/generate-solution",
    requireUser,
    validate("query", GenerateSolutionQuery),
    validate("json", GenerateSolutionBody),
    async (c) => {
      const deps = c.var.deps;
      const user = c.var.user;
      const { runId } = await startRun(deps, user.id, c.req.valid("json"));
      const wait = c.req.valid("query").wait;
      if (wait !== "true" && wait !== "1") return c.json({ runId }, 202);
      const run = await waitForRunEnd(deps.db, deps.redis, deps.queues.prefix, runId, WAIT_LIMIT_MS);
      if (run.status === "failed")
        throw solveErrors.runFailed(run.error_code ?? "run.failed", run.error_message ?? "The run failed");
      if (run.status === "cancelled") throw solveErrors.runCancelled();
      if (run.status !== "completed" || !run.solution_id) return c.json({ runId }, 202);
      const owned = await findOwnedSolution(deps.db, user.id, run.solution_id);
      return c.json({ runId, solution: presentSolution(owned) }, 200);
    },
  )
  .get("/runs/:id", requireUser, validate("param", RunParam), async (c) => {
    const { db, env } = c.get("deps");
    const run = await runs.findOwned(db, c.get("user").id, c.req.valid("param").id);
    if (!run) throw solveErrors.runNotFound();
    const [stored, note, actions] = await Promise.all([
      steps.listForView(db, run.id),
      queuedNoteOf(db, env.MAX_ACTIVE_RUNS_PER_USER, run),
      runActionsOf(db, run),
    ]);
    return c.json({ run: presentRun(run, stored, note, actions) });
  })
  .get("/runs/:id/events", requireUser, validate("param", RunParam), async (c) => {
    const run = await runs.findOwned(c.var.deps.db, c.var.user.id, c.req.valid("param").id);
    if (!run) throw solveErrors.runNotFound();
    const release = await acquireStreamSlot(c.var.deps, c.var.user.id, "run");
    return streamRunEvents(c, run.id, release);
  })
  /** The run's stored test log (each phase's end, see STORED_TEST_LOG_CHARS): what a finished solve shows once its live stream expired. */
  .get("/runs/:id/tests-log", requireUser, validate("param", RunParam), async (c) => {
    const { db } = c.var.deps;
    const run = await runs.findOwned(db, c.var.user.id, c.req.valid("param").id);
    if (!run) throw solveErrors.runNotFound();
    return c.json({ runId: run.id, phases: await runTestLogs.ofRun(db, run.id) });
  })
  .post("/runs/:id/cancel", requireUser, validate("param", RunParam), async (c) => {
    const deps = c.var.deps;
    const run = await runs.findOwned(deps.db, c.var.user.id, c.req.valid("param").id);
    if (!run) throw solveErrors.runNotFound();
    const status = await cancelRun(deps, run);
    return c.json({ runId: run.id, status });
  })
  .post("/runs/:id/resume", requireUser, validate("param", RunParam), async (c) => {
    const deps = c.var.deps;
    const run = await runs.findOwned(deps.db, c.var.user.id, c.req.valid("param").id);
    if (!run) throw solveErrors.runNotFound();
    await resumeRun(deps, run);
    return c.json({ runId: run.id, status: "queued" as const }, 202);
  })
  /** What the model saw: the exact prompt of the run's generating step, what cleaning removed, flagged text, and every request with its cost. */
  .get("/runs/:id/prompt", requireUser, validate("param", RunParam), async (c) => {
    const { db } = c.var.deps;
    const run = await runs.findOwned(db, c.var.user.id, c.req.valid("param").id);
    if (!run) throw solveErrors.runNotFound();
    const [prompt, requests, output] = await Promise.all([
      steps.generatingPrompt(db, run.id).then(promptRecordOf),
      runModelRequests(db, run.id),
      steps.generatingOutput(db, run.id),
    ]);
    // An Investigate run's trajectory: what each agent searched, opened, ran and edited.
    const agent = agentTrajectoriesOf((output as { agent?: unknown } | null | undefined)?.agent);
    return c.json({ runId: run.id, prompt, requests, agent });
  });
