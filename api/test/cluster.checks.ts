import { expect } from "vitest";
import type { TestStack } from "./stack";
import { RESUMED_AFTER_RESTART, jobIds, runEventsKey } from "@fixloop/contract";
import { parseEntry } from "@fixloop/runtime";

/**
 * Every run completed once: one solution, one completion event, no stalled job. Runs in `resumed`
 * were handed back by a drain that ran out of time: claimed twice, their interrupted step says so;
 * every other run was claimed once and resumed nothing.
 */
export async function expectEachCompletedOnce(stack: TestStack, ids: string[], resumed: string[] = []) {
  const rows = await stack.db.selectFrom("solve_runs").selectAll().where("id", "in", ids).execute();
  const figures = { runs: ids.length, completed: 0, lost: 0, duplicated: 0, interrupted: 0, stalled: 0 };
  figures.completed = rows.filter((r) => r.status === "completed").length;
  figures.lost = ids.length - figures.completed;
  const solutions = await stack.db.selectFrom("solutions").select("run_id").where("run_id", "in", ids).execute();
  figures.duplicated = solutions.length - new Set(solutions.map((s) => s.run_id)).size;
  for (const id of ids) {
    const events = (await stack.redis.xrange(runEventsKey(stack.prefix, id), "-", "+")).map(([, f]) => parseEntry(f));
    figures.duplicated += Math.max(0, events.filter((e) => e?.type === "completed").length - 1);
    const job = await stack.deps.queues.solve.getJob(jobIds.solve(id));
    figures.stalled += job?.stalledCounter ?? 0;
  }
  const steps = await stack.db
    .selectFrom("run_steps")
    .select(["run_id", "detail"])
    .where("run_id", "in", ids)
    .execute();
  const noted = new Set(
    steps
      .filter((s) => ((s.detail as { info?: string[] } | null)?.info ?? []).includes(RESUMED_AFTER_RESTART))
      .map((s) => s.run_id),
  );
  for (const r of rows) {
    const wasResumed = noted.has(r.id) || r.attempts !== 1;
    if (wasResumed !== resumed.includes(r.id)) figures.interrupted++;
    if (resumed.includes(r.id)) expect([r.attempts, noted.has(r.id)]).toEqual([2, true]);
  }
  expect(figures).toEqual({ ...figures, completed: ids.length, lost: 0, duplicated: 0, interrupted: 0, stalled: 0 });
  expect(solutions).toHaveLength(ids.length);
  return figures;
}
