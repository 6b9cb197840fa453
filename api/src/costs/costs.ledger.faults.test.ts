import { describe, expect, it } from "vitest";
import { insertIssue } from "@fixloop/testkit";
import { until } from "../../test/faults.testkit";
import { countBy, ledgerKit } from "../../test/ledger.testkit";

/**
 * The ledger under a hostile price list: a self-hosted model and the embeddings priced at $1000
 * per million tokens, concurrent runs, malformed answers and a worker killed mid-request. Real
 * worker processes run the solves, so one can be SIGKILLed like a crashed machine.
 */
const k = ledgerKit();
const { workers, startWorker, signedIn, solve, ledger, ended, unrecorded, reset } = k;

describe("the spending ledger", () => {
  it("records a request whose worker was killed mid-call at its worst case, unconfirmed, when the run resumes", async () => {
    reset();
    const me = await signedIn("octocat");
    const issue = await insertIssue(k.stack.db, me.userId, { number: 300 });
    k.models.control.latency(120_000);
    const first = startWorker();
    const runId = await solve(me.headers, issue.id);
    // The first chat request (the model rerank of step 3) hangs at the stand-in, reserved in the ledger.
    // Reserved is not enough: the reservation comes before the request is sent, and a worker killed in
    // between never sent it (it is still recorded at its worst case, so received − recorded would be −1).
    const hanging = async () =>
      (await ledger(me.userId)).some((r) => r.state === "reserved" && r.purpose === "rerank") &&
      k.models.control.requests.length > 0;
    await until("a model request in flight", hanging, 90_000);
    await workers.kill(first);
    k.models.control.latency(0);
    const second = startWorker();
    await until("the run resumed and ended", () => ended([runId]), 120_000);
    await workers.stop(second);

    const rows = await ledger(me.userId);
    const crashed = rows.find((r) => r.outcome?.startsWith("interrupted"));
    expect(crashed).toMatchObject({ step: "dependencies", state: "unconfirmed", purpose: "rerank" });
    expect(Number(crashed?.cost_usd)).toBe(Number(crashed?.reserved_usd));
    expect(Number(crashed?.cost_usd)).toBeGreaterThan(1);
    expect(rows.filter((r) => r.state === "reserved")).toEqual([]);
    const gap = await unrecorded(me.userId);
    console.log(
      `ledger, worker killed mid-request: ${k.received()} requests received, ${await k.recorded(me.userId)} recorded ` +
        `(${JSON.stringify(countBy(rows.map((r) => r.state)))}), received − recorded = ${gap}`,
    );
    expect(gap).toBe(0);
    // The run's cost and the month's are the ledger's, the interrupted request at its worst case included.
    const total = rows.reduce((n, r) => n + Number(r.cost_usd), 0);
    const run = await k.stack.db.selectFrom("solve_runs").selectAll().where("id", "=", runId).executeTakeFirstOrThrow();
    expect(Number(run.cost_usd)).toBeCloseTo(total, 4);
    const caps = (await (await k.stack.app.request("/api/costs/caps", { headers: me.headers })).json()) as {
      spentThisPeriodUsd: number;
    };
    expect(caps.spentThisPeriodUsd).toBeCloseTo(total, 4);
  }, 240_000);

  it("records a provider error at what it reports, a timeout and a cancel after sending at the worst case", async () => {
    reset();
    const me = await signedIn("monalisa");
    const worker = startWorker({ MODEL_TIMEOUT_SECONDS: "2" });
    // The first request (step 3's rerank) answers 500, its retry never answers (timeout), the next one is fine.
    k.models.control.failNext({ status: 500 });
    k.models.control.hangNext(1);
    const issue = await insertIssue(k.stack.db, me.userId, { number: 350 });
    const runId = await solve(me.headers, issue.id);
    await until("the run ended", () => ended([runId]), 120_000);
    const rows = await ledger(me.userId);
    const rerank = rows.filter((r) => r.purpose === "rerank");
    expect(rerank.map((r) => [r.attempts, r.state, r.outcome?.split(":")[0]])).toEqual([
      [1, "settled", "model.unavailable"],
      [2, "unconfirmed", "model.unavailable"],
      [3, "settled", "ok"],
    ]);
    expect(Number(rerank[0]?.cost_usd)).toBe(0);
    expect(Number(rerank[1]?.cost_usd)).toBe(Number(rerank[1]?.reserved_usd));

    // A cancel while a chat request is in flight: it was sent, its cost is unknown, the worst case stands.
    await workers.stop(worker);
    const patient = startWorker();
    k.models.control.latency(120_000);
    const second = await insertIssue(k.stack.db, me.userId, { number: 351 });
    const cancelled = await solve(me.headers, second.id);
    const inFlight = async () =>
      (await ledger(me.userId)).some((r) => r.run_id === cancelled && r.state === "reserved" && r.purpose === "rerank");
    await until("a request in flight", inFlight, 60_000);
    const res = await k.stack.app.request(`/api/runs/${cancelled}/cancel`, { method: "POST", headers: me.headers });
    expect(res.status).toBeLessThan(300);
    await until("the run cancelled", () => ended([cancelled]), 60_000);
    k.models.control.latency(0);
    await workers.stop(patient);
    const own = (await ledger(me.userId)).filter((r) => r.run_id === cancelled && r.purpose !== "embeddings");
    expect(own.map((r) => [r.state, r.outcome?.split(":")[0]])).toEqual([["unconfirmed", "model.cancelled"]]);
    expect(Number(own[0]?.cost_usd)).toBe(Number(own[0]?.reserved_usd));
    expect(await unrecorded(me.userId)).toBe(0);
  }, 240_000);

  it("stops a run whose malformed answer's repair would pass the run cap before the repair is sent", async () => {
    reset();
    const me = await signedIn("octocat");
    const setRunCap = (runCapUsd: number | null) => k.setCaps(me.headers, { runCapUsd, monthlyCapUsd: null });
    const title = "no-empty-heading misses headings with only spaces";
    k.models.control.respondWith((p) => p.includes(title), { raw: '{"analysis": "The issue is caused by' });
    // Only the answer and its repair: no embeddings, no model rerank.
    const worker = startWorker({ EMBEDDINGS_MODEL: "", MODEL_RERANK: "off" });
    const attempt = async (number: number) => {
      const issue = await insertIssue(k.stack.db, me.userId, {
        number,
        title,
        body: "See `src/rules/no-empty-heading.js`.",
      });
      const runId = await solve(me.headers, issue.id);
      await until("the run ended", () => ended([runId]), 120_000);
      const run = await k.stack.db
        .selectFrom("solve_runs")
        .selectAll()
        .where("id", "=", runId)
        .executeTakeFirstOrThrow();
      return { run, rows: (await ledger(me.userId)).filter((r) => r.run_id === runId) };
    };
    // Without a cap: the malformed answer, then its repair (malformed again).
    await setRunCap(null);
    const free = await attempt(360);
    expect(free.run.error_code).toBe("model.malformed_output");
    const [answer, repair] = free.rows;
    expect([answer?.purpose, repair?.purpose]).toEqual(["answer", "answer: malformed repair"]);
    // A cap that holds the answer's worst case but not the answer's real cost plus the repair's worst case.
    const cap = Number(answer?.reserved_usd) + Number(answer?.cost_usd) / 2;
    await setRunCap(cap);
    const capped = await attempt(361);
    await workers.stop(worker);
    expect(capped.run.error_code).toBe("cost.run_cap_exceeded");
    expect(capped.rows.map((r) => `${r.purpose} → ${r.outcome}`)).toEqual(["answer → malformed"]);
    expect(Number(capped.run.cost_usd)).toBeLessThanOrEqual(cap);
    expect(await unrecorded(me.userId)).toBe(0);
  }, 180_000);

  it("never lets 20 concurrent runs near the monthly cap spend past it, malformed answers included, and records every request sent", async () => {
    reset();
    const me = await signedIn("hubot");
    const setCap = (monthlyCapUsd: number) => k.setCaps(me.headers, { runCapUsd: null, monthlyCapUsd });
    await setCap(1_000);
    const editMiss = "line-length ignores the max option of nested config";
    k.models.control.respondWith((p) => p.includes(editMiss), {
      analysis: "The limit is read from the wrong key.",
      proposedSolution: "Read options.max.",
      confidence: 40,
      files: [
        {
          filename: "src/rules/line-length.js",
          action: "modify",
          edits: [{ search: "text that is nowhere in the file", replace: "x" }],
        },
      ],
    });
    const malformed = "no-empty-heading misses headings with only spaces";
    k.models.control.respondWith((p) => p.includes(malformed), { raw: '{"analysis": "The issue is caused by' });
    const special = (i: number) =>
      i % 10 === 0
        ? { title: editMiss, body: "See `src/rules/line-length.js`." }
        : i % 10 === 1
          ? { title: malformed, body: "See `src/rules/no-empty-heading.js`." }
          : {};
    const worker = startWorker();

    // First, with room: an answer whose edits miss (edit repair) and one malformed twice (malformed repair).
    const first = await Promise.all(
      [0, 1].map((i) => insertIssue(k.stack.db, me.userId, { number: 400 + i, ...special(i) })),
    );
    const firstRuns = await Promise.all(first.map((i) => solve(me.headers, i.id)));
    await until("the two runs ended", () => ended(firstRuns), 120_000, 500);
    const repairs = (await ledger(me.userId)).map((r) => `${r.purpose} → ${r.outcome}`);
    expect(repairs).toEqual(
      expect.arrayContaining([
        "answer → malformed",
        "answer: malformed repair → malformed",
        "answer → ok",
        "answer: edit repair → ok",
      ]),
    );

    // Then 20 at once, with about four runs' worth of room left under the cap.
    const before = (await ledger(me.userId)).reduce((n, r) => n + Number(r.cost_usd), 0);
    const cap = Math.round(before) + 60;
    await setCap(cap);
    const issues = await Promise.all(
      Array.from({ length: 20 }, (_, i) => insertIssue(k.stack.db, me.userId, { number: 410 + i, ...special(i) })),
    );
    const runIds = await Promise.all(issues.map((i) => solve(me.headers, i.id)));
    await until("all 20 runs ended", () => ended(runIds), 200_000, 500);
    await workers.stop(worker);

    const rows = await ledger(me.userId);
    const spent = rows.reduce((n, r) => n + Number(r.cost_usd), 0);
    const overshoot = Math.max(0, spent - cap);
    const received = k.models.control.requests.length + k.models.control.embeddingRequests.length;
    const runs = await k.stack.db.selectFrom("solve_runs").selectAll().where("id", "in", runIds).execute();
    const codes = runs.map((r) => r.error_code ?? r.status);
    const gap = await unrecorded(me.userId);
    console.log(
      `ledger: ${runs.length} concurrent runs (${JSON.stringify(countBy(codes))}), ${received} requests received ` +
        `in all, ${rows.length} recorded (${JSON.stringify(countBy(rows.map((r) => r.state)))}), received − recorded = ${gap}; ` +
        `spent $${spent.toFixed(2)} of a $${cap} cap, max overshoot $${overshoot.toFixed(6)}`,
    );
    expect(overshoot).toBe(0);
    expect(gap).toBe(0);
    expect(rows.filter((r) => r.state === "reserved")).toEqual([]);
    expect(codes).toContain("cost.monthly_cap_exceeded");
    // The room under the cap was used: some runs got through. Which ones is a race; under load the
    // first two, a malformed answer and an edit miss (its repair then refused by the cap, so no
    // change), can take all of it, so "completed" is not required of them.
    const through = codes.filter((c) => c !== "cost.monthly_cap_exceeded");
    expect(through.length).toBeGreaterThan(0);
    for (const c of through) expect(["completed", "model.malformed_output", "generation.no_changes"]).toContain(c);
    const meter = (await (await k.stack.app.request("/api/costs/caps", { headers: me.headers })).json()) as {
      spentThisPeriodUsd: number;
      reservedUsd: number;
    };
    expect(meter.spentThisPeriodUsd).toBeCloseTo(spent, 4);
    expect(meter.reservedUsd).toBe(0);
    for (const r of [
      ...runs,
      ...(await k.stack.db.selectFrom("solve_runs").selectAll().where("id", "in", firstRuns).execute()),
    ]) {
      const own = rows.filter((x) => x.run_id === r.id).reduce((n, x) => n + Number(x.cost_usd), 0);
      expect(Number(r.cost_usd)).toBeCloseTo(own, 4);
    }
  }, 400_000);
});
