import { issues, runs, solutions, type Conn } from "@fixloop/db";
import { manualEditsOf, refineInputOf, standing, type ManualEdit, type RefineInput } from "@fixloop/contract";
import type { AppDeps } from "../deps";
import { assertAllowed } from "../issues/issues.standing";
import { solveErrors } from "../solve/solve.errors";
import { startAndEnqueue } from "../solve/runs.start";
import { assertModelStillAllowed } from "../solve/solve.model-access";
import { solutionErrors } from "./solutions.errors";
import { lockOwnedSolution, type SolutionRow } from "./solutions.owned";
import type { RefineBody } from "./solutions.schemas";

/** How a refinement is started when it is not the validation page's (addressing a pull request's review). */
export interface RefineOptions {
  /** The status the solution must have (default pending). */
  status?: "pending" | "pr_created";
  /** What the refinement is, as the issue's standing is asked (default a refinement). */
  action?: "refine" | "address";
  /** Runs in the run's transaction once the solution is locked; what it writes is kept only if the run starts. */
  within?: (trx: Conn, solution: SolutionRow) => Promise<void>;
}

/**
 * Starts a refine run: the solve processor reuses the stored analyzing/context/dependencies
 * results and regenerates with every piece of feedback so far (newest last) and the manual edits.
 * A finished refinement rewrites the solution's metadata, so the history is carried run to run
 * in each run's input. A refinement is a model run started like a solve (`startAndEnqueue`): it
 * reserves one unit of the plan's quota in the same transaction that creates the run, charged
 * when it completes and given back when it fails, is cancelled or cannot be queued.
 */
export async function refineSolution(
  deps: Pick<AppDeps, "db" | "queues" | "logger" | "env">,
  userId: string,
  id: string,
  body: RefineBody,
  opts: RefineOptions = {},
) {
  const feedback = [body.feedback.trim(), body.refinementInstructions?.trim()]
    .filter((s, i, all): s is string => !!s && all.indexOf(s) === i)
    .join("\n\n");
  let refinementCount = 0;
  const outcome = await startAndEnqueue(deps, async (trx) => {
    const { solution } = await lockOwnedSolution(trx, userId, id);
    const fromStatus = opts.status ?? "pending";
    if (solution.status !== fromStatus) throw solutionErrors.notPending(solution.status);
    // As a solve: its pull request could not be opened or pushed to, so nothing is reserved for it.
    assertAllowed(opts.action ?? "refine", standing((await issues.findForRun(trx, userId, solution.issue_id)) ?? {}));
    await opts.within?.(trx, solution);
    const before = refineInputOf(await runs.latestRefineInput(trx, id));
    const key = (e: ManualEdit) => `${e.filename}@${e.revision ?? ""}`;
    const edits = new Map(
      [...before.manualEdits, ...manualEditsOf(solution.metadata.manualEdits)].map((e) => [key(e), e]),
    );
    const input: RefineInput = {
      feedback: [...before.feedback, feedback],
      manualEdits: [...edits.values()],
      fromRevision: solution.revision,
      fromStatus,
    };
    await solutions.keepCurrentRevision(trx, solution);
    // The run counts the refinement when it finishes; this is the number it will get.
    refinementCount = solution.refinement_count + 1;
    // aiModel holds the model's display name; the run needs its id, kept on the original run.
    const modelId = (solution.run_id ? await runs.modelOf(trx, solution.run_id) : undefined) ?? solution.ai_model;
    await assertModelStillAllowed(deps, trx, userId, modelId);
    return { userId, issueId: solution.issue_id, kind: "refine", solutionId: id, modelId, input };
  });
  if (outcome.status === "active") throw solutionErrors.runOpen();
  if (outcome.status === "over_quota") throw solveErrors.usageLimit();
  return { runId: outcome.runId, refinementCount };
}
