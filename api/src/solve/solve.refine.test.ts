import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stepDetail } from "@fixloop/db";
import { REPRODUCTION_TOOL } from "@fixloop/contract";
import { startModelSandbox, type ModelSandbox } from "@fixloop/testkit/sandbox";
import { createTestStack, type TestStack } from "../../test/stack";
import { jobIds } from "@fixloop/contract";
import { sweepOnce } from "@fixloop/worker";
import { insertIssue, insertRun } from "@fixloop/testkit";
import { readSse } from "../../test/sse.testkit";
import { solutionOf } from "../../test/solve.testkit";

let models: ModelSandbox;
let stack: TestStack;

beforeAll(async () => {
  models = await startModelSandbox();
  stack = await createTestStack({ env: models.env, workers: ["solve"], logLevel: "warn" });
});
afterAll(async () => {
  await models?.stop();
});

describe("refine runs and the sweeper", () => {
  it("refines the existing solution, reusing the first three steps and sending all feedback", async () => {
    const me = await stack.signIn("octocat");
    const headers = { ...me.headers, "content-type": "application/json" };
    const issue = await insertIssue(stack.db, me.user._id, { number: 3 });
    const res = await stack.client(headers).ai["generate-solution"].$post({
      query: { wait: "true" },
      json: { issueId: issue.id },
    });
    expect(res.status).toBe(200);
    const solution = await solutionOf(res);
    expect(solution.metadata.refinementCount).toBe(0);

    const run = await insertRun(stack.db, {
      user_id: me.user._id,
      issue_id: issue.id,
      kind: "refine",
      solution_id: solution._id,
      input: JSON.stringify({ feedback: ["Keep the regex readable", "Also cover \\r"], manualEdits: [] }),
    });
    await stack.deps.queues.solve.add("solve", { runId: run.id }, { jobId: jobIds.solve(run.id) });
    const got = await readSse(await stack.app.request(`/api/runs/${run.id}/events`, { headers }));
    expect(got.at(-1)?.event).toBe("completed");
    expect((got.at(-1)?.data as { solutionId: string }).solutionId).toBe(solution._id);
    const steps = await stack.db.selectFrom("run_steps").selectAll().where("run_id", "=", run.id).execute();
    for (const s of steps.filter((x) => ["analyzing", "context", "dependencies"].includes(x.step)))
      expect(stepDetail.read(s.detail).info[0]).toBe("Reused from the original run");
    const fixes = models.control.requests.filter((r) => r.tool !== REPRODUCTION_TOOL);
    expect(fixes.at(-1)?.prompt).toMatch(/1\. Keep the regex readable\n2\. Also cover/);
    const sol = await stack.db
      .selectFrom("solutions")
      .selectAll()
      .where("id", "=", solution._id)
      .executeTakeFirstOrThrow();
    expect([sol.refinement_count, sol.revision]).toEqual([1, 2]);
    const revs = await stack.db
      .selectFrom("solution_revisions")
      .select(["kind", "revision"])
      .where("solution_id", "=", solution._id)
      .orderBy("revision")
      .execute();
    expect(revs).toEqual([
      { kind: "generated", revision: 1 },
      { kind: "refinement", revision: 2 },
    ]);
    expect(await stack.db.selectFrom("solutions").select("id").where("issue_id", "=", issue.id).execute()).toHaveLength(
      1,
    );
  });

  it("re-enqueues an unfinished run that no job holds", async () => {
    const me = await stack.signIn("monalisa");
    const issue = await insertIssue(stack.db, me.user._id, { number: 7 });
    const run = await insertRun(stack.db, {
      user_id: me.user._id,
      issue_id: issue.id,
      created_at: new Date(Date.now() - 120_000),
    });
    await stack.redis.del(`${stack.prefix}:sweeper-lock`);
    const { requeued } = await sweepOnce(stack.ctx, 5);
    expect(requeued).toContain(run.id);
    const got = await readSse(await stack.app.request(`/api/runs/${run.id}/events`, { headers: me.headers }));
    expect(got.at(-1)?.event).toBe("completed");
  });
});
