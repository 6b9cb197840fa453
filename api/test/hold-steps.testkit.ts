import { sql } from "kysely";
import { expect } from "vitest";
import type { StepId } from "@fixloop/contract";
import type { Db, Conn } from "@fixloop/db";
import { until } from "./faults.testkit";
import { readSse } from "./sse.testkit";
import type { SolveKit } from "./solve.testkit";

/**
 * Holds every write to run_steps until `release`: the worker that claimed a run waits at its first
 * step's start, so what the test sends meanwhile (a Cancel, a webhook) lands before the worker can
 * store a step or end the run, in the order the test sends it. Reads (the run page, the worker's)
 * go on.
 */
export function holdStepWrites(db: Db) {
  type Then = ((trx: Conn) => Promise<void>) | undefined;
  let release: (then: Then) => void = () => {};
  const released = new Promise<Then>((r) => (release = r));
  let locked = () => {};
  const held = new Promise<void>((r) => (locked = r));
  const done = db.transaction().execute(async (trx) => {
    await sql`lock table run_steps in exclusive mode`.execute(trx);
    locked();
    await (
      await released
    )?.(trx);
  });
  return {
    held,
    /** `then`: written while the table is still held, kept when the hold ends. */
    release: async (then?: Then) => {
      release(then);
      await done;
    },
  };
}

/**
 * True once a worker is waiting on the held run_steps table (it has claimed its run). Of this
 * database only: every test database is a clone of one template, so run_steps has the same OID in
 * each, and pg_locks lists the whole cluster (another file's held table answered here, and a Cancel
 * went out before this run was claimed).
 */
export async function workerWaits(db: Db): Promise<boolean> {
  const r = await sql<{ n: number }>`
    select count(*)::int as n from pg_locks
    where not granted and relation = 'run_steps'::regclass
      and database = (select oid from pg_database where datname = current_database())`.execute(db);
  return (r.rows[0]?.n ?? 0) > 0;
}

/** A not yet started step of the run (`holdStepWrites`' `release` writes it before the worker can). */
export const pendingStep = (runId: string, step: StepId) => async (trx: Conn) => {
  await sql`insert into run_steps (run_id, step, status, detail)
    values (${runId}, ${step}, 'pending', '{"files":[],"info":[],"warnings":[]}'::jsonb)`.execute(trx);
};

/**
 * Holds the worker at `step`'s start: a lock on the step's row (written by `pendingStep`) makes
 * the worker's mark of the step as started wait until `release`. The steps before it run as usual,
 * and the worker's own check for a Cancel at the step's start comes before that mark.
 */
export async function holdStepStart(db: Db, runId: string, step: StepId) {
  let release = () => {};
  const released = new Promise<void>((r) => (release = r));
  let locked: (found: boolean) => void = () => {};
  const held = new Promise<boolean>((r) => (locked = r));
  const done = db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("run_steps")
      .select("status")
      .where("run_id", "=", runId)
      .where("step", "=", step)
      .forUpdate()
      .executeTakeFirst();
    locked(row?.status === "pending");
    await released;
  });
  if (!(await Promise.race([held, done.then(() => false)]))) throw new Error(`${step} is not pending: nothing to hold`);
  return {
    release: async () => {
      release();
      await done;
    },
  };
}

/**
 * True once a worker's mark of a step as started waits on the row `holdStepStart` holds (a row's
 * lock, not the table's that `holdStepWrites` held).
 */
export async function workerWaitsOnStep(db: Db): Promise<boolean> {
  const r = await sql<{ n: number }>`
    select count(*)::int as n from pg_stat_activity
    where datname = current_database() and wait_event_type = 'Lock' and wait_event in ('transactionid', 'tuple')
      and query ilike 'insert into "run_steps"%'`.execute(db);
  return (r.rows[0]?.n ?? 0) > 0;
}

type StepEvent = { step: string; status: string; detail: { warnings: string[] } };
type RunView = { status: string; steps: { id: string; status: string; detail: { warnings: string[] } }[] };

/**
 * Follows a run the test cancelled to its end and checks what every cancelled run shows: its
 * stream ends `cancelled` with run.cancelled, its row is cancelled with no solution, and its page
 * says cancelled. Answers what each step shows, for the test's own checks: the step events
 * streamed, the steps stored, and the page's steps (`id:status`).
 */
export async function endedCancelled(kit: SolveKit, runId: string) {
  const events = await readSse(await kit.events(runId));
  expect(events.at(-1)).toMatchObject({
    event: "cancelled",
    data: { error: { code: "run.cancelled", message: "The run was cancelled" } },
  });
  const run = await kit.stack.db
    .selectFrom("solve_runs")
    .select(["status", "error_code", "solution_id"])
    .where("id", "=", runId)
    .executeTakeFirstOrThrow();
  expect(run).toEqual({ status: "cancelled", error_code: "run.cancelled", solution_id: null });
  const stored = await kit.stack.db
    .selectFrom("run_steps")
    .select(["step", "status"])
    .where("run_id", "=", runId)
    .execute();
  const page = await kit.stack.app.request(`/api/runs/${runId}`, { headers: kit.headers });
  expect(page.status).toBe(200);
  const shown = ((await page.json()) as { run: RunView }).run;
  expect(shown.status).toBe("cancelled");
  return {
    stepEvents: events.filter((e) => e.event === "step").map((e) => e.data as StepEvent),
    stored: Object.fromEntries(stored.map((s) => [s.step, s.status])),
    shown: shown.steps.map((s) => `${s.id}:${s.status}`),
  };
}

/** Starts a solve of the issue while step writes are held, and waits for a worker to claim it and wait; its run id. */
export async function startClaimed(kit: SolveKit, issueId: string): Promise<string> {
  const res = await kit.generate({ issueId });
  expect(res.status).toBe(202);
  const { runId } = (await res.json()) as { runId: string };
  await until("the worker to claim the run and wait", () => workerWaits(kit.stack.db), 15_000, 20);
  return runId;
}

/** The user's Cancel of the run, as the solve page sends it: taken, the run cancelling. */
export async function askCancel(kit: SolveKit, runId: string): Promise<void> {
  const cancel = await kit.stack.app.request(`/api/runs/${runId}/cancel`, { method: "POST", headers: kit.headers });
  expect(cancel.status).toBe(200);
  expect(await cancel.json()).toEqual({ runId, status: "cancelling" });
}
