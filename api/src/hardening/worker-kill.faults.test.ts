import pg from "pg";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startModelSandbox, type ModelSandbox } from "@fixloop/testkit/sandbox";
import { createTestStack, type TestStack } from "../../test/stack";
import { approve } from "../../test/pull-requests.fixtures";
import { RESUMED_AFTER_RESTART, STEPS, runEventsKey } from "@fixloop/contract";
import { issues } from "@fixloop/db";
import { parseEntry } from "@fixloop/runtime";
import { seedSolution } from "@fixloop/testkit";
import { insertIssue } from "@fixloop/testkit";
import { makeEnterprise, until, usedQuota, workerProcesses } from "../../test/faults.testkit";

/**
 * SIGKILL of a real worker process while jobs are mid-step. A trigger makes the worker's own
 * "step finished" (or "pull request saved") write wait on an advisory lock this test holds, so
 * the kill lands exactly inside the chosen step; the blocked statements are then terminated,
 * as the database does when a worker's connection dies.
 */
const HOLD = 727274;
const PER_STEP = 3;

let models: ModelSandbox;
let stack: TestStack;
let holder: pg.Client;
const workers = workerProcesses();
const figures = {
  faultsInjected: 0,
  runsInFlight: 0,
  runsLost: 0,
  duplicateCharges: 0,
  duplicatePulls: 0,
  duplicateForks: 0,
};

beforeAll(async () => {
  models = await startModelSandbox();
  stack = await createTestStack({ env: { ...models.env, JOB_WAIT_SECONDS: "0" }, workers: false, logLevel: "warn" });
  holder = new pg.Client({ connectionString: stack.deps.env.DATABASE_URL });
  await holder.connect();
  await sql`create table fault_plan (run_id uuid primary key, step text not null)`.execute(stack.db);
  await sql`create function fault_hold_step() returns trigger language plpgsql as $$
    begin
      if NEW.status = 'completed' and exists (select 1 from fault_plan p where p.run_id = NEW.run_id and p.step = NEW.step) then
        perform pg_advisory_xact_lock(${sql.lit(HOLD)});
      end if;
      return NEW;
    end $$`.execute(stack.db);
  await sql`create function fault_hold_always() returns trigger language plpgsql as $$
    begin
      perform pg_advisory_xact_lock(${sql.lit(HOLD)});
      return NEW;
    end $$`.execute(stack.db);
}, 120_000);
afterAll(async () => {
  console.log(`worker kill figures: ${JSON.stringify(figures)}`);
  await holder?.end();
  await models?.stop();
});

const workerEnv = (queues: string) => ({
  DATABASE_URL: stack.deps.env.DATABASE_URL,
  REDIS_URL: stack.deps.env.REDIS_URL,
  QUEUE_PREFIX: stack.prefix,
  GITHUB_API_URL: stack.github.url,
  WORKER_QUEUES: queues,
  WORKER_CONCURRENCY: "20",
  ...models.env,
});

const waiting = async () =>
  Number(
    (
      await holder.query(`select count(*) from pg_locks where locktype = 'advisory' and objid = $1 and not granted`, [
        HOLD,
      ])
    ).rows[0].count,
  );

/** Kills the worker, ends the statements it left blocked, and lifts the hold. */
async function crash(child: Parameters<typeof workers.kill>[0], trigger: string, table: string) {
  await workers.kill(child);
  await holder.query(
    `select pg_terminate_backend(pid) from pg_locks where locktype = 'advisory' and objid = $1 and not granted`,
    [HOLD],
  );
  await holder.query(`drop trigger ${trigger} on ${table}`);
  await holder.query(`select pg_advisory_unlock($1)`, [HOLD]);
}

describe("a worker SIGKILLed inside each of the five steps", () => {
  it("finishes every run exactly once on a new worker, charging each once and keeping finished steps", async () => {
    const me = await stack.signIn("octocat");
    await makeEnterprise(stack.db, me.user._id);
    const headers = { ...me.headers, "content-type": "application/json" };
    await holder.query(`select pg_advisory_lock($1)`, [HOLD]);
    await holder.query(
      `create trigger hold_steps before update on run_steps for each row execute function fault_hold_step()`,
    );
    const before = await usedQuota(stack.db, me.user._id);

    const first = workers.start(workerEnv("solve"));
    const plan: { runId: string; step: string }[] = [];
    for (const [s, step] of STEPS.entries()) {
      for (let k = 0; k < PER_STEP; k++) {
        const issue = await insertIssue(stack.db, me.user._id, { number: 100 + s * 10 + k });
        const res = await stack.app.request("/api/ai/generate-solution", {
          method: "POST",
          headers,
          body: JSON.stringify({ issueId: issue.id }),
        });
        expect(res.status).toBe(202);
        const { runId } = (await res.json()) as { runId: string };
        await sql`insert into fault_plan values (${runId}, ${step})`.execute(stack.db);
        plan.push({ runId, step });
      }
    }
    const runIds = plan.map((p) => p.runId);
    await until(`${plan.length} runs held inside their step`, async () => (await waiting()) === plan.length, 60_000);
    const held = await stack.db
      .selectFrom("run_steps")
      .select(["run_id", "step", "status", "finished_at"])
      .where("run_id", "in", runIds)
      .execute();
    for (const p of plan) expect(held.find((r) => r.run_id === p.runId && r.step === p.step)?.status).toBe("running");
    const finishedBefore = held.filter((r) => r.status === "completed");

    await crash(first, "hold_steps", "run_steps");
    figures.faultsInjected += plan.length;
    figures.runsInFlight += plan.length;
    const second = workers.start(workerEnv("solve"));
    const runs = () => stack.db.selectFrom("solve_runs").selectAll().where("id", "in", runIds).execute();
    await until("all runs completed", async () => (await runs()).every((r) => r.status === "completed"), 100_000, 500);
    await workers.stop(second);

    const done = await runs();
    figures.runsLost += done.filter((r) => r.status !== "completed").length;
    expect(done.every((r) => r.quota_state === "charged" && r.solution_id && r.attempts === 2)).toBe(true);
    const charged = (await usedQuota(stack.db, me.user._id)) - before;
    figures.duplicateCharges += charged - plan.length;
    expect(charged).toBe(plan.length);
    const solutions = await stack.db.selectFrom("solutions").select("run_id").where("run_id", "in", runIds).execute();
    expect(solutions.map((s) => s.run_id).sort()).toEqual([...runIds].sort());
    // Steps that had finished before the crash were not run again.
    const after = await stack.db
      .selectFrom("run_steps")
      .select(["run_id", "step", "finished_at"])
      .where("run_id", "in", runIds)
      .execute();
    for (const f of finishedBefore)
      expect(after.find((a) => a.run_id === f.run_id && a.step === f.step)?.finished_at).toEqual(f.finished_at);
    // The step the crash interrupted says so; the others do not.
    const details = await stack.db
      .selectFrom("run_steps")
      .select(["run_id", "step", "detail"])
      .where("run_id", "in", runIds)
      .execute();
    for (const d of details) {
      const info = (d.detail as { info?: string[] } | null)?.info ?? [];
      const interrupted = plan.some((p) => p.runId === d.run_id && p.step === d.step);
      expect(info.includes(RESUMED_AFTER_RESTART), `${d.step} of ${d.run_id}`).toBe(interrupted);
    }
    for (const id of runIds) {
      const events = (await stack.redis.xrange(runEventsKey(stack.prefix, id), "-", "+")).map(([, f]) => parseEntry(f));
      const names = events.map((e) => (e?.type === "step" ? `${e.step}:${e.status}` : e?.type));
      expect(names.filter((n) => n === "completed")).toHaveLength(1);
      for (const step of STEPS) expect(names.filter((n) => n === `${step}:completed`)).toHaveLength(1);
    }
  }, 180_000);
});

describe("a worker SIGKILLed between pushing and recording the pull request", () => {
  it("opens exactly one pull request on one branch after a new worker starts", async () => {
    const me = await stack.signIn("octocat", { scopes: ["public_repo"] });
    const headers = { ...me.headers, "content-type": "application/json" };
    const { solutionId } = await seedSolution(stack.db, {
      userId: me.user._id,
      repoFullName: "octocat/todo-api",
      issueNumber: 3,
      files: [{ filename: "notes/crash.md", action: "create", originalContent: "", content: "survives a crash\n" }],
    });
    await holder.query(`select pg_advisory_lock($1)`, [HOLD]);
    await holder.query(
      `create trigger hold_pulls before insert on pull_requests for each row execute function fault_hold_always()`,
    );
    const first = workers.start(workerEnv("pull-request"));
    const res = await approve(stack, solutionId, headers);
    expect(res.status).toBe(202);
    await until("pull request opened on GitHub, record held", async () => (await waiting()) === 1, 60_000);
    expect(stack.github.control.listPulls("octocat", "todo-api")).toHaveLength(1);

    await crash(first, "hold_pulls", "pull_requests");
    figures.faultsInjected += 1;
    const second = workers.start(workerEnv("pull-request"));
    const stored = () =>
      stack.db.selectFrom("pull_requests").selectAll().where("solution_id", "=", solutionId).execute();
    await until("pull request recorded", async () => (await stored()).length === 1, 90_000, 500);
    await workers.stop(second);

    const pulls = stack.github.control.listPulls("octocat", "todo-api");
    figures.duplicatePulls += pulls.length - 1;
    expect(pulls).toHaveLength(1);
    expect((await stored())[0]?.pr_number).toBe(pulls[0]?.number);
    const solution = await stack.db
      .selectFrom("solutions")
      .select("status")
      .where("id", "=", solutionId)
      .executeTakeFirstOrThrow();
    expect(solution.status).toBe("pr_created");
  }, 150_000);
});

describe("a worker SIGKILLed between forking and storing the imported issue", () => {
  it("keeps one fork and stores the issue once after a new worker starts", async () => {
    const me = await stack.signIn("octocat", { scopes: ["public_repo"] });
    const headers = { ...me.headers, "content-type": "application/json" };
    const repos = (await (await fetch(`${stack.github.url}/users/hubot/repos`)).json()) as {
      name: string;
      private: boolean;
    }[];
    const repo = repos.find((r) => !r.private)?.name ?? "";
    const [issueNumber] = stack.github.control.addIssues("hubot", repo, [
      { title: "Import me", body: "Steps", labels: ["bug"] },
    ]);
    const forks = async () =>
      (
        (await (await fetch(`${stack.github.url}/repos/hubot/${repo}/forks`)).json()) as { owner: { login: string } }[]
      ).filter((f) => f.owner.login === "octocat");
    expect(await forks()).toHaveLength(0);
    await holder.query(`select pg_advisory_lock($1)`, [HOLD]);
    await holder.query(
      `create trigger hold_issues before insert on issues for each row execute function fault_hold_always()`,
    );
    const first = workers.start(workerEnv("fork"));
    const res = await stack.app.request("/api/contributions/import-issue", {
      method: "POST",
      headers,
      body: JSON.stringify({ owner: "hubot", repo, issueNumber }),
    });
    expect(res.status).toBeLessThan(500);
    await until("fork created, issue record held", async () => (await waiting()) === 1, 60_000);
    expect(await forks()).toHaveLength(1);

    await crash(first, "hold_issues", "issues");
    figures.faultsInjected += 1;
    const second = workers.start(workerEnv("fork"));
    const imported = () =>
      issues
        .selectIssues(stack.db)
        .where("issues.user_id", "=", me.user._id)
        .where("issue_repo.full_name", "=", `hubot/${repo}`)
        .where("issues.issue_number", "=", issueNumber ?? 0)
        .execute();
    await until("imported issue stored", async () => (await imported()).length === 1, 90_000, 500);
    await workers.stop(second);
    const forksAfter = await forks();
    figures.duplicateForks = forksAfter.length - 1;
    expect(forksAfter).toHaveLength(1);
    expect(await imported()).toHaveLength(1);
    expect((await imported())[0]).toMatchObject({ is_imported: true, fork_full_name: `octocat/${repo}` });
  }, 150_000);
});
