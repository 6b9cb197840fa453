import { Hono } from "hono";
import { pullRequests, runs, solutions } from "@fixloop/db";
import type { AppEnv } from "../deps";
import { requireUser } from "../auth/auth.middleware";
import { validate } from "../http/validate";
import { decideSolution } from "./solutions.decide";
import { solutionErrors } from "./solutions.errors";
import { modifySolution } from "./solutions.modify";
import { acquireStreamSlot } from "../solve/sse.limit";
import { streamTestsRerun } from "./solutions.tests-live";
import { presentSolution, presentSolutionListItem } from "./solutions.present";
import { refineSolution } from "./solutions.refine";
import { findOwnedSolution, lockOwnedSolution } from "./solutions.owned";
import { CandidateParam, selectCandidate } from "./solutions.candidates";
import { includeReproduction } from "./solutions.reproduction";
import { DecideBody, ModifyBody, RefineBody, SolutionIdParam } from "./solutions.schemas";

/** Solutions awaiting review: read, edit, refine, approve or reject (served under the spec's `/api/validations` URLs). */
export const solutionsRoutes = new Hono<AppEnv>()
  .use("/validations/*", requireUser)
  .get("/validations/pending", async (c) => {
    const rows = await solutions.listAnswering(c.var.deps.db, c.var.user.id);
    return c.json({ solutions: rows.map((r) => presentSolutionListItem(r)) });
  })
  .get("/validations/:id", validate("param", SolutionIdParam), async (c) => {
    const { db } = c.var.deps;
    const owned = await findOwnedSolution(db, c.var.user.id, c.req.valid("param").id);
    return c.json({
      solution: presentSolution(owned),
      previousVersion: await solutions.previousVersion(db, owned.solution.id),
      pullRequest: await pullRequests.forSolution(db, owned.solution.id),
      // A refinement still queued or running: the page follows it, and the files wait for it.
      refiningRunId: (await runs.activeRefineOf(db, owned.solution.id))?.id ?? null,
    });
  })
  .delete("/validations/:id", validate("param", SolutionIdParam), async (c) => {
    const { db } = c.var.deps;
    const { id } = c.req.valid("param");
    await db.transaction().execute(async (trx) => {
      // Locked, so an approval (or a refinement finishing) cannot slip between the check and the delete.
      const { solution } = await lockOwnedSolution(trx, c.var.user.id, id);
      if (solution.status === "pr_created") throw solutionErrors.hasPullRequest();
      if (solution.status === "approved") throw solutionErrors.openingPullRequest();
      await solutions.remove(trx, solution);
    });
    return c.json({ deleted: true, _id: id });
  })
  .post("/validations/:id/modify", validate("param", SolutionIdParam), validate("json", ModifyBody), async (c) => {
    const { db } = c.var.deps;
    const { id } = c.req.valid("param");
    await modifySolution(c.var.deps, c.var.user.id, id, c.req.valid("json"));
    return c.json({ solution: presentSolution(await findOwnedSolution(db, c.var.user.id, id)) });
  })
  .post("/validations/:id/candidates/:n/select", validate("param", CandidateParam), async (c) => {
    const { id, n } = c.req.valid("param");
    const switched = await selectCandidate(c.var.deps, c.var.user.id, id, n);
    return c.json({ switched, solution: presentSolution(await findOwnedSolution(c.var.deps.db, c.var.user.id, id)) });
  })
  .post("/validations/:id/reproduction/include", validate("param", SolutionIdParam), async (c) => {
    const { id } = c.req.valid("param");
    const included = await includeReproduction(c.var.deps, c.var.user.id, id);
    return c.json({ included, solution: presentSolution(await findOwnedSolution(c.var.deps.db, c.var.user.id, id)) });
  })
  .get("/validations/:id/tests/events", validate("param", SolutionIdParam), async (c) => {
    const { solution } = await findOwnedSolution(c.var.deps.db, c.var.user.id, c.req.valid("param").id);
    const release = await acquireStreamSlot(c.var.deps, c.var.user.id, "tests");
    return streamTestsRerun(c, solution.id, solution.revision, release);
  })
  .post("/validations/:id/refine", validate("param", SolutionIdParam), validate("json", RefineBody), async (c) => {
    const result = await refineSolution(c.var.deps, c.var.user.id, c.req.valid("param").id, c.req.valid("json"));
    return c.json(result, 202);
  })
  .post("/validations/:id/validate", validate("param", SolutionIdParam), validate("json", DecideBody), async (c) => {
    const result = await decideSolution(c.var.deps, c.var.user.id, c.req.valid("param").id, c.req.valid("json"));
    if (result.kind === "rejected") return c.json({ status: "rejected" as const }, 200);
    if (result.kind === "created") return c.json({ status: "approved" as const, githubUrl: result.githubUrl }, 200);
    return c.json({ status: "approved" as const, jobId: result.jobId }, 202);
  });
