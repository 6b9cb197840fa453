import { describe, expect, it } from "vitest";
import { seedSolution } from "@fixloop/testkit";
import { currentUsagePeriod } from "@fixloop/db";
import { createTestApp } from "../../test/testing";
import { PROPOSED, solutionsSetup as setup } from "../../test/solutions.testkit";
import { errorOf } from "../../test/testing";

describe("refining a solution (POST /api/validations/:id/refine)", () => {
  it("rejects blank refinement feedback with 400 and starts no run", async () => {
    const { api, solutionId, db } = await setup();
    for (const feedback of ["", "   \n\t"]) {
      const res = await api[":id"].refine.$post({
        param: { id: solutionId },
        json: { feedback, refinementInstructions: feedback },
      });
      expect(res.status).toBe(400);
      expect((await errorOf(res)).code).toBe("request.invalid");
    }
    expect(await db.selectFrom("solve_runs").selectAll().execute()).toEqual([]);
  });

  it("starts a refine run carrying all feedback so far and the manual edits, reserving one unit of quota", async () => {
    const { api, solutionId, db, deps } = await setup();
    await api[":id"].modify.$post({
      param: { id: solutionId },
      json: {
        modifications: [
          {
            filename: "src/paginate.ts",
            originalContent: PROPOSED,
            modifiedContent: "// edited\n" + PROPOSED,
            reason: "explain",
          },
        ],
      },
    });
    const first = await api[":id"].refine.$post({
      param: { id: solutionId },
      json: { feedback: "Add a test", refinementInstructions: "Add a test" },
    });
    expect(first.status).toBe(202);
    const a = await first.json();
    expect(a.refinementCount).toBe(1);
    // The run counts the refinement when it finishes (here: by hand, as the solve processor would).
    expect((await api[":id"].refine.$post({ param: { id: solutionId }, json: { feedback: "again" } })).status).toBe(
      409,
    );

    await db.updateTable("solve_runs").set({ status: "completed" }).where("id", "=", a.runId).execute();
    await db
      .updateTable("solutions")
      .set({ refinement_count: 1, metadata: JSON.stringify({ refinementCount: 1 }) })
      .where("id", "=", solutionId)
      .execute();
    const second = await api[":id"].refine.$post({
      param: { id: solutionId },
      json: { feedback: "Name the helper pageStart" },
    });
    const b = await second.json();
    expect(b.refinementCount).toBe(2);
    const run = await db.selectFrom("solve_runs").selectAll().where("id", "=", b.runId).executeTakeFirstOrThrow();
    expect(run).toMatchObject({
      kind: "refine",
      solution_id: solutionId,
      model_id: "llama-3.3-70b-versatile",
      quota_state: "reserved",
      status: "queued",
    });
    expect((await db.selectFrom("usage_counters").select("used").executeTakeFirstOrThrow()).used).toBe(2);
    expect(run.input).toMatchObject({
      feedback: ["Add a test", "Name the helper pageStart"],
      manualEdits: [{ filename: "src/paginate.ts", reason: "explain", revision: 2 }],
      fromStatus: "pending",
    });
    expect(await deps.queues.solve.getJob(`run-${b.runId}`)).toBeTruthy();
  });

  it("refuses 15 refinements at 10 of 10 FREE units with the quota error, starting no run and queueing no job", async () => {
    const { api, solutionId, db, deps, me } = await setup();
    const { periodStart } = await currentUsagePeriod(db, me.user.id);
    await db
      .insertInto("usage_counters")
      .values({ user_id: me.user.id, period_start: periodStart, used: 10 })
      .execute();
    const answers = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        api[":id"].refine.$post({ param: { id: solutionId }, json: { feedback: `try ${i}` } }),
      ),
    );
    for (const res of answers) {
      expect(res.status).toBe(429);
      expect(await res.json()).toEqual({ error: { code: "usage.limit_exceeded", message: "Usage limit exceeded" } });
    }
    expect(await db.selectFrom("solve_runs").selectAll().execute()).toEqual([]);
    expect(await deps.queues.solve.getJobCounts()).toMatchObject({ waiting: 0, active: 0, delayed: 0 });
    expect(
      (await db.selectFrom("usage_counters").select("used").where("user_id", "=", me.user.id).executeTakeFirstOrThrow())
        .used,
    ).toBe(10);
  });

  it("refuses to refine on a model the plan no longer allows, starting no run and reserving nothing", async () => {
    const { api, solutionId, db, deps, me } = await setup({ env: { ANTHROPIC_API_KEY: "sk-ant-test" } });
    // Made on Anthropic's model while on PRO; the plan has lapsed to FREE since.
    await db.updateTable("solutions").set({ ai_model: "claude-sonnet-4-5" }).where("id", "=", solutionId).execute();
    const res = await api[":id"].refine.$post({ param: { id: solutionId }, json: { feedback: "Add a test" } });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      error: { code: "plan.model_not_allowed", message: "Premium subscription required" },
    });
    expect(await db.selectFrom("solve_runs").selectAll().execute()).toEqual([]);
    expect(await db.selectFrom("usage_counters").selectAll().execute()).toEqual([]);
    expect(await deps.queues.solve.getJobCounts()).toMatchObject({ waiting: 0, active: 0, delayed: 0 });
    // Back on PRO, the same refinement starts on that model.
    await db.insertInto("subscriptions").values({ user_id: me.user.id, plan: "PRO" }).execute();
    const again = await api[":id"].refine.$post({ param: { id: solutionId }, json: { feedback: "Add a test" } });
    expect(again.status).toBe(202);
    const { runId } = await again.json();
    expect(
      (await db.selectFrom("solve_runs").select("model_id").where("id", "=", runId).executeTakeFirstOrThrow()).model_id,
    ).toBe("claude-sonnet-4-5");
  });

  it("refuses to approve or reject while a refinement runs, and decides once it has ended", async () => {
    const { api, solutionId, db } = await setup();
    const started = await api[":id"].refine.$post({ param: { id: solutionId }, json: { feedback: "Add a test" } });
    expect(started.status).toBe(202);
    const { runId } = await started.json();
    for (const status of ["approved", "rejected"] as const) {
      const res = await api[":id"].validate.$post({ param: { id: solutionId }, json: { status } });
      expect(res.status).toBe(409);
      expect((await errorOf(res)).code).toBe("solution.refining");
    }
    expect(await db.selectFrom("validation_decisions").selectAll().execute()).toEqual([]);
    expect(
      (await db.selectFrom("solutions").select("status").where("id", "=", solutionId).executeTakeFirstOrThrow()).status,
    ).toBe("pending");
    // Once the refinement ended (here: cancelled), the decision goes through.
    await db.updateTable("solve_runs").set({ status: "cancelled" }).where("id", "=", runId).execute();
    expect((await api[":id"].validate.$post({ param: { id: solutionId }, json: { status: "rejected" } })).status).toBe(
      200,
    );
  });

  it("refuses hand edits while a refinement runs (it would replace them when it finishes), and takes them once it ended", async () => {
    const { api, solutionId, db } = await setup();
    const started = await api[":id"].refine.$post({ param: { id: solutionId }, json: { feedback: "Add a test" } });
    const { runId } = await started.json();
    const edit = {
      modifications: [
        {
          filename: "src/paginate.ts",
          originalContent: PROPOSED,
          modifiedContent: `// edited\n${PROPOSED}`,
          reason: "x",
        },
      ],
    };
    const refused = await api[":id"].modify.$post({ param: { id: solutionId }, json: edit });
    expect(refused.status).toBe(409);
    expect((await errorOf(refused)).code).toBe("solution.refining");
    const files = () =>
      db
        .selectFrom("solutions")
        .select(["revision", "files_changed"])
        .where("id", "=", solutionId)
        .executeTakeFirstOrThrow();
    const before = await files();
    expect(before.files_changed).toMatchObject([{ content: PROPOSED }]);
    // The review page learns of it (and follows it after a reload).
    const refiningRunId = async () =>
      (await (await api[":id"].$get({ param: { id: solutionId } })).json()).refiningRunId;
    expect(await refiningRunId()).toBe(runId);
    await db.updateTable("solve_runs").set({ status: "cancelled" }).where("id", "=", runId).execute();
    expect(await refiningRunId()).toBeNull();
    expect((await api[":id"].modify.$post({ param: { id: solutionId }, json: edit })).status).toBe(200);
    expect((await files()).revision).toBe(before.revision + 1);
  });

  it("does not resume a cap-stopped refinement of a solution approved or edited since, and changes nothing", async () => {
    const { api, solutionId, db, deps, me, app } = await setup();
    const started = await api[":id"].refine.$post({ param: { id: solutionId }, json: { feedback: "Add a test" } });
    const { runId } = await started.json();
    const stopped = { status: "failed", error_code: "cost.run_cap_exceeded", quota_state: "released" } as const;
    await db.updateTable("solve_runs").set(stopped).where("id", "=", runId).execute();
    await deps.queues.solve.remove(`run-${runId}`);
    const used = async () => (await db.selectFrom("usage_counters").select("used").executeTakeFirstOrThrow()).used;
    const usedBefore = await used();
    const resume = () => app.request(`/api/runs/${runId}/resume`, { method: "POST", headers: me.headers });
    const row = () =>
      db
        .selectFrom("solve_runs")
        .select(["status", "error_code", "quota_state"])
        .where("id", "=", runId)
        .executeTakeFirstOrThrow();
    const setSolution = (v: { status?: "approved" | "pending"; revision?: number }) =>
      db.updateTable("solutions").set(v).where("id", "=", solutionId).execute();
    const { revision } = await db
      .selectFrom("solutions")
      .select("revision")
      .where("id", "=", solutionId)
      .executeTakeFirstOrThrow();

    for (const [change, said] of [
      [{ status: "approved" }, /^Not resumed: the solution was approved after this refinement started/],
      [{ status: "pending", revision: revision + 1 }, /revision \d+ became \d+/],
    ] as const) {
      await setSolution(change);
      const res = await resume();
      expect(res.status).toBe(409);
      const error = await errorOf(res);
      expect(error.code).toBe("refine.superseded");
      expect(error.message).toMatch(said);
      expect(await row()).toEqual(stopped);
      expect(await used()).toBe(usedBefore);
      expect(await deps.queues.solve.getJob(`run-${runId}`)).toBeFalsy();
    }
    // The solution as the refinement left it: the run resumes.
    await setSolution({ revision });
    expect((await resume()).status).toBe(202);
    expect((await row()).status).toBe("queued");
  });

  it("rate-limits refinements with generate's budget", async () => {
    const t = await createTestApp({ RATE_LIMITS_ENABLED: "true", RATE_LIMITS: "generate=3/60" });
    const me = await t.loginAs();
    const { solutionId } = await seedSolution(t.db, {
      userId: me.user.id,
      repoFullName: "octocat/todo-api",
      issueNumber: 5,
      files: [],
    });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await t.app.request(`/api/validations/${solutionId}/refine`, {
        method: "POST",
        headers: { "content-type": "application/json", ...me.headers },
        body: JSON.stringify({ feedback: "again" }),
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(3)).toEqual([429, 429]);
  });
});
