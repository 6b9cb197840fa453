import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ModelSandbox } from "@fixloop/testkit/sandbox";
import { insertIssue, insertRun } from "@fixloop/testkit";

import type { TestStack } from "../../test/stack";
import { costsKit, OPERATOR_RUN_CAP } from "../../test/costs.testkit";
import { errorOf } from "../../test/testing";

const { t, setCaps, generate, follow, run, steps, used } = costsKit();
let models: ModelSandbox;
let stack: TestStack;
let headers: Record<string, string>;
let userId: string;
beforeAll(() => ({ models, stack, headers, userId } = t));
beforeEach(async () => {
  await setCaps({ runCapUsd: null, monthlyCapUsd: null });
});

describe("spending caps", () => {
  it("applies the operator's default until the user sets a cap, and refuses a negative cap without changing anything", async () => {
    const initial = await (await stack.client(headers).costs.caps.$get()).json();
    expect(initial).toMatchObject({
      runCapUsd: null,
      defaults: { runCapUsd: OPERATOR_RUN_CAP, monthlyCapUsd: null },
      effective: { runCapUsd: OPERATOR_RUN_CAP, monthlyCapUsd: null },
    });
    const set = await setCaps({ runCapUsd: 0.5, monthlyCapUsd: 20 });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      runCapUsd: 0.5,
      monthlyCapUsd: 20,
      effective: { runCapUsd: 0.5, monthlyCapUsd: 20 },
    });
    const bad = await setCaps({ runCapUsd: -1, monthlyCapUsd: 1 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("request.invalid");
    // Past what the database keeps (numeric(12, 6)): refused, not a 500.
    const huge = await setCaps({ runCapUsd: 1, monthlyCapUsd: 1_000_000 });
    expect(huge.status).toBe(400);
    expect(huge.body.error.code).toBe("request.invalid");
    const after = await (await stack.client(headers).costs.caps.$get()).json();
    expect(after).toMatchObject({ runCapUsd: 0.5, monthlyCapUsd: 20 });
  });

  it("stops a run over its per-run cap before the model call, keeps its steps and quota free, and resumes once the cap is raised", async () => {
    await setCaps({ runCapUsd: 0.000001, monthlyCapUsd: null });
    const issue = await insertIssue(stack.db, userId, {
      number: 4,
      title: "line-length flags lines that are exactly at the limit",
      body: "See `src/rules/line-length.js`.",
    });
    const before = await used();
    const runId = await generate(issue.id);
    const events = await follow(runId);
    const end = events.at(-1);
    expect(end?.event).toBe("failed");
    expect((end?.data as { error: { code: string; message: string } }).error).toMatchObject({
      code: "cost.run_cap_exceeded",
      message: expect.stringContaining("per-run cap of $0.0000"),
    });
    expect(models.control.requests).toHaveLength(0);

    const stopped = await run(runId);
    expect(stopped).toMatchObject({ status: "failed", error_code: "cost.run_cap_exceeded", quota_state: "released" });
    expect(await used()).toBe(before);
    const byStep = new Map((await steps(runId)).map((s) => [s.step, s]));
    for (const s of ["analyzing", "context", "dependencies"] as const) expect(byStep.get(s)?.status).toBe("completed");
    expect(byStep.get("generating")?.status).toBe("failed");
    expect(byStep.get("generating")?.prompt).not.toBeNull();

    await setCaps({ runCapUsd: 1, monthlyCapUsd: null });
    const resumed = await stack.client(headers).runs[":id"].resume.$post({ param: { id: runId } });
    expect(resumed.status).toBe(202);
    const again = await follow(runId);
    expect(again.at(-1)?.event).toBe("completed");
    expect(models.control.requests).toHaveLength(1);
    const done = await run(runId);
    expect(done).toMatchObject({ status: "completed", quota_state: "charged", error_code: null });
    expect(await used()).toBe(before + 1);
    // The stored steps were reused, not run again.
    const finished = new Map((await steps(runId)).map((s) => [s.step, s]));
    expect(finished.get("analyzing")?.finished_at).toEqual(byStep.get("analyzing")?.finished_at);
  });

  it("resumes a cap-stopped run that a Cancel reached as it stopped, instead of cancelling the Resume", async () => {
    await setCaps({ runCapUsd: 0.000001, monthlyCapUsd: null });
    const issue = await insertIssue(stack.db, userId, {
      number: 931,
      title: "line-length flags lines that are exactly at the limit",
      body: "See `src/rules/line-length.js`.",
    });
    const runId = await generate(issue.id);
    expect((await follow(runId)).at(-1)?.event).toBe("failed");
    // A Cancel that came after the worker's last read of the flag, while it ended the run at the
    // cap, leaves the request on the failed run (the cancel endpoint flags a running run).
    await stack.db
      .updateTable("solve_runs")
      .set({
        cancel_requested_at: new Date(),
        cancel_error_code: "run.cancelled",
        cancel_error_message: "The run was cancelled",
      })
      .where("id", "=", runId)
      .execute();
    expect(await run(runId)).toMatchObject({ status: "failed", error_code: "cost.run_cap_exceeded" });

    await setCaps({ runCapUsd: 1, monthlyCapUsd: null });
    const resumed = await stack.client(headers).runs[":id"].resume.$post({ param: { id: runId } });
    expect(resumed.status).toBe(202);
    const again = await follow(runId);
    expect(again.at(-1)?.event).toBe("completed");
    expect(models.control.requests).toHaveLength(1);
    expect(await run(runId)).toMatchObject({
      status: "completed",
      quota_state: "charged",
      error_code: null,
      cancel_requested_at: null,
      cancel_error_code: null,
      cancel_error_message: null,
    });
  });

  it("stops a run that would pass the monthly cap, with its own code", async () => {
    await setCaps({ runCapUsd: null, monthlyCapUsd: 0.000001 });
    const issue = await insertIssue(stack.db, userId, {
      number: 5,
      title: "no-empty-heading misses headings with only spaces",
      body: "See `src/rules/no-empty-heading.js`.",
    });
    const runId = await generate(issue.id);
    const end = (await follow(runId)).at(-1);
    expect((end?.data as { error: { code: string } }).error.code).toBe("cost.monthly_cap_exceeded");
    expect(models.control.requests).toHaveLength(0);
  });

  it("resumes only runs a cap stopped", async () => {
    const completed = await stack.db
      .selectFrom("solve_runs")
      .select("id")
      .where("user_id", "=", userId)
      .where("status", "=", "completed")
      .executeTakeFirstOrThrow();
    const res = await stack.client(headers).runs[":id"].resume.$post({ param: { id: completed.id } });
    expect(res.status).toBe(409);
    expect((await errorOf(res)).code).toBe("run.not_resumable");
    const other = await stack.signIn("hubot");
    const foreign = await stack.client(other.headers).runs[":id"].resume.$post({ param: { id: completed.id } });
    expect(foreign.status).toBe(404);
  });

  it("does not resume a run on a model the plan no longer allows, and changes nothing", async () => {
    // Stopped by a cap while the user was on a plan with Anthropic's models; the plan is FREE now.
    const issue = await insertIssue(stack.db, userId, { number: 930 });
    const stopped = await insertRun(stack.db, {
      user_id: userId,
      issue_id: issue.id,
      model_id: "claude-sonnet-4-5",
      status: "failed",
      error_code: "cost.run_cap_exceeded",
      quota_state: "released",
    });
    const usedBefore = await used();
    const res = await stack.client(headers).runs[":id"].resume.$post({ param: { id: stopped.id } });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      error: { code: "plan.model_not_allowed", message: "Premium subscription required" },
    });
    const after = await stack.db
      .selectFrom("solve_runs")
      .select(["status", "error_code", "quota_state"])
      .where("id", "=", stopped.id)
      .executeTakeFirstOrThrow();
    expect(after).toEqual({ status: "failed", error_code: "cost.run_cap_exceeded", quota_state: "released" });
    expect(await used()).toBe(usedBefore);
    expect(await stack.deps.queues.solve.getJob(`run-${stopped.id}`)).toBeFalsy();
  });
  it("does not resume a run whose issue is gone from GitHub, refusing it as a new solve is, and changes nothing", async () => {
    const issue = await insertIssue(stack.db, userId, { number: 932 });
    const stopped = await insertRun(stack.db, {
      user_id: userId,
      issue_id: issue.id,
      model_id: "llama-3.3-70b-versatile",
      status: "failed",
      error_code: "cost.run_cap_exceeded",
      quota_state: "released",
    });
    // Transferred on GitHub after the cap stopped the run.
    await stack.db
      .updateTable("issues")
      .set({ status: "closed", state: "closed", gone: "transferred", moved_to: "octocat/elsewhere#7" })
      .where("id", "=", issue.id)
      .execute();
    const usedBefore = await used();
    const before = await run(stopped.id);
    const res = await stack.client(headers).runs[":id"].resume.$post({ param: { id: stopped.id } });
    expect(res.status).toBe(410);
    const body = await res.json();
    expect(body).toEqual({
      error: {
        code: "issue.transferred",
        message:
          "This issue was transferred to another repository on GitHub (octocat/elsewhere#7); import it from there to solve it",
      },
    });
    // The very answer a new solve of the issue gets.
    const fresh = await t.generate({ issueId: issue.id });
    expect(fresh.status).toBe(410);
    expect(await fresh.json()).toEqual(body);
    expect(await run(stopped.id)).toEqual(before);
    expect(before).toMatchObject({ status: "failed", error_code: "cost.run_cap_exceeded", quota_state: "released" });
    expect(await used()).toBe(usedBefore);
    expect(await stack.deps.queues.solve.getJob(`run-${stopped.id}`)).toBeFalsy();
  });
});
