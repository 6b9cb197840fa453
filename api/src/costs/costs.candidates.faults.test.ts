import { describe, expect, it } from "vitest";
import { insertIssue } from "@fixloop/testkit";
import { StepDetail } from "@fixloop/contract";
import { until } from "../../test/faults.testkit";
import { countBy, ledgerKit } from "../../test/ledger.testkit";

/**
 * Caps with several candidates per run: the N answer requests of step 4 go out together, each
 * reserved against the caps on its own, under the $1000-per-million-tokens price list.
 */
const k = ledgerKit();
const { workers, startWorker, signedIn, solve, ledger, ended, unrecorded, reset } = k;

const run = (id: string) =>
  k.stack.db.selectFrom("solve_runs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const spent = (rows: { cost_usd: string | number }[]) => rows.reduce((n, r) => n + Number(r.cost_usd), 0);

describe("spending caps with several candidates per run", () => {
  it("sends two of three candidates when the run cap holds only two worst cases, and never the third", async () => {
    reset();
    const me = await signedIn("octocat");
    // Only the answers: no embeddings, no model rerank. Slow answers: the three are reserved before any is settled.
    const worker = startWorker({ EMBEDDINGS_MODEL: "", MODEL_RERANK: "off" });
    k.models.control.latency(1_500);
    const attempt = async (number: number) => {
      const issue = await insertIssue(k.stack.db, me.userId, { number });
      const runId = await solve(me.headers, issue.id, { candidates: 3 });
      await until("the run ended", () => ended([runId]), 120_000);
      return { run: await run(runId), rows: (await ledger(me.userId)).filter((r) => r.run_id === runId) };
    };
    await k.setCaps(me.headers, { runCapUsd: null, monthlyCapUsd: null });
    const free = await attempt(700);
    expect(free.run.status).toBe("completed");
    expect(free.rows.map((r) => r.purpose).sort()).toEqual(["answer", "answer: candidate 2", "answer: candidate 3"]);
    const worst = Math.max(...free.rows.map((r) => Number(r.reserved_usd)));

    const cap = 2.5 * worst;
    await k.setCaps(me.headers, { runCapUsd: cap, monthlyCapUsd: null });
    const sentBefore = k.models.control.requests.length;
    const capped = await attempt(701);
    await workers.stop(worker);
    expect(capped.run.status).toBe("completed");
    expect(capped.rows.map((r) => r.state)).toEqual(["settled", "settled"]);
    expect(k.models.control.requests.length - sentBefore).toBe(2);
    expect(capped.rows.reduce((n, r) => n + Number(r.reserved_usd), 0)).toBeLessThanOrEqual(cap);
    expect(Number(capped.run.cost_usd)).toBeLessThanOrEqual(cap);
    expect(Number(capped.run.cost_usd)).toBeCloseTo(spent(capped.rows), 6);
    const step = await k.stack.db
      .selectFrom("run_steps")
      .select("detail")
      .where("run_id", "=", capped.run.id)
      .where("step", "=", "generating")
      .executeTakeFirstOrThrow();
    expect(StepDetail.parse(step.detail).warnings.join("\n")).toMatch(
      /Candidate \d was not generated: This run could cost up to/,
    );
    expect(await unrecorded(me.userId)).toBe(0);
  }, 120_000);

  it("never lets concurrent runs of three candidates near the monthly cap spend past it, and records every request sent", async () => {
    reset();
    const me = await signedIn("hubot");
    const worker = startWorker();
    await k.setCaps(me.headers, { runCapUsd: null, monthlyCapUsd: null });
    // One run with room measures what a three-candidate run costs here (embeddings, rerank, three answers).
    const first = await insertIssue(k.stack.db, me.userId, { number: 800 });
    const firstRun = await solve(me.headers, first.id, { candidates: 3 });
    await until("the first run ended", () => ended([firstRun]), 120_000);
    expect((await run(firstRun)).status).toBe("completed");
    const firstRows = await ledger(me.userId);
    const reserved = (rows: { reserved_usd: string | number }[]) =>
      rows.reduce((n, r) => n + Number(r.reserved_usd), 0);
    const isAnswer = (r: { purpose: string }) => r.purpose.startsWith("answer");
    const beforeAnswers = reserved(firstRows.filter((r) => !isAnswer(r)));
    const worstAnswer = Math.max(...firstRows.filter(isAnswer).map((r) => Number(r.reserved_usd)));

    // Then eight at once. The cap holds every run's requests before step 4 at their worst (so how the eight
    // interleave cannot starve step 4) and four answers at their worst: some answers go out, most cannot.
    const cap = Math.ceil(8 * beforeAnswers + 4 * worstAnswer);
    await k.setCaps(me.headers, { runCapUsd: null, monthlyCapUsd: cap });
    // The model reports no usage now: each chat request is recorded at its worst case, so a reservation
    // that should not have been granted shows as overshoot (real costs far under the worst case would hide it).
    k.models.control.usage({ input: 0, output: 0 });
    const issues = await Promise.all(
      Array.from({ length: 8 }, (_, i) => insertIssue(k.stack.db, me.userId, { number: 801 + i })),
    );
    const runIds = await Promise.all(issues.map((i) => solve(me.headers, i.id, { candidates: 3 })));
    await until("all 8 runs ended", () => ended(runIds), 200_000, 500);
    await workers.stop(worker);

    const rows = await ledger(me.userId);
    const total = spent(rows);
    const overshoot = Math.max(0, total - cap);
    const runs = await k.stack.db.selectFrom("solve_runs").selectAll().where("id", "in", runIds).execute();
    const codes = runs.map((r) => r.error_code ?? r.status);
    const answers = rows.filter((r) => r.purpose.startsWith("answer") && runIds.includes(r.run_id)).length;
    const gap = await unrecorded(me.userId);
    console.log(
      `ledger, candidates: 8 concurrent runs of 3 candidates (${JSON.stringify(countBy(codes))}), ` +
        `${answers} of 24 answer requests sent, ${k.received()} requests received in all, ${rows.length} recorded ` +
        `(${JSON.stringify(countBy(rows.map((r) => r.state)))}), received − recorded = ${gap}; ` +
        `spent $${total.toFixed(2)} of a $${cap} cap, max overshoot $${overshoot.toFixed(6)}`,
    );
    expect(overshoot).toBe(0);
    expect(gap).toBe(0);
    expect(rows.filter((r) => r.state === "reserved")).toEqual([]);
    expect(answers).toBeGreaterThan(0);
    expect(answers).toBeLessThan(24);
    expect(codes).toContain("cost.monthly_cap_exceeded");
    for (const r of runs) expect(Number(r.cost_usd)).toBeCloseTo(spent(rows.filter((x) => x.run_id === r.id)), 4);
  }, 300_000);
});
