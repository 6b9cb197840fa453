import { describe, expect, it } from "vitest";
import { createTestDatabase, insertIssue, insertUser } from "../../test/testing";
import { setSpendingCaps, runSpent, spendingSince } from "./costs.repository";
import * as runs from "./runs";
import {
  recoverReservations,
  releaseSpend,
  reserveSpend,
  settleSpend,
  type SpendReservation,
} from "./spend.repository";

const { db } = await createTestDatabase();
const PERIOD = new Date("2026-01-01T00:00:00Z");

async function newRun(userId: string, number: number): Promise<string> {
  const issue = await insertIssue(db, userId, { number });
  return db.transaction().execute((trx) =>
    runs.create(trx, {
      user_id: userId,
      issue_id: issue.id,
      model_id: "m",
      kind: "solve",
      quotaPeriodStart: PERIOD,
    }),
  );
}

const request = (userId: string, runId: string, worstUsd: number): SpendReservation => ({
  runId,
  userId,
  step: "generating",
  purpose: "answer",
  modelId: "m",
  attempt: 1,
  worstUsd,
  periodStart: PERIOD,
  defaults: {},
});

const ledgerSum = async (userId: string) =>
  Number(
    (
      await db
        .selectFrom("model_requests")
        .select((eb) => eb.fn.sum<string>("cost_usd").as("usd"))
        .where("user_id", "=", userId)
        .executeTakeFirst()
    )?.usd ?? 0,
  );

describe("reserving model spend", () => {
  it("never lets many concurrent reservations of several runs pass the monthly cap together", async () => {
    const userId = await insertUser(db);
    await setSpendingCaps(db, userId, { runUsd: null, monthlyUsd: 10.5 });
    const runIds = await Promise.all([1, 2, 3, 4, 5].map((n) => newRun(userId, n)));
    const tries = Array.from({ length: 60 }, (_, i) => request(userId, runIds[i % runIds.length] ?? "", 1.25));
    const outcomes = await Promise.all(tries.map((t) => reserveSpend(db, t)));
    const granted = outcomes.filter((o) => o.id !== null).length;
    // 8 × $1.25 = $10 fits, a 9th would make $11.25.
    expect(granted).toBe(8);
    expect(await ledgerSum(userId)).toBeCloseTo(10, 6);
    expect(await ledgerSum(userId)).toBeLessThanOrEqual(10.5);
    const refused = outcomes.find((o) => o.id === null);
    expect(refused).toMatchObject({ monthlyCapUsd: 10.5, runCapUsd: null });
    expect(refused?.monthSpentUsd).toBeCloseTo(10, 6);
  });

  it("holds the run cap under concurrency, and the operator's default applies when the user set none", async () => {
    const userId = await insertUser(db);
    const runId = await newRun(userId, 1);
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, () => reserveSpend(db, { ...request(userId, runId, 0.3), defaults: { runUsd: 2 } })),
    );
    expect(outcomes.filter((o) => o.id !== null)).toHaveLength(6);
    expect(await ledgerSum(userId)).toBeCloseTo(1.8, 6);
  });

  it("settles to the real cost, releases what was never sent, and frees the room for the next request", async () => {
    const userId = await insertUser(db);
    await setSpendingCaps(db, userId, { runUsd: 5, monthlyUsd: null });
    const runId = await newRun(userId, 1);
    const a = await reserveSpend(db, request(userId, runId, 4));
    expect(a.id).not.toBeNull();
    expect((await reserveSpend(db, request(userId, runId, 4))).id).toBeNull();
    expect(await spendingSince(db, userId, PERIOD)).toEqual({ spentUsd: 0, heldUsd: 4 });

    await settleSpend(db, a.id ?? "", { tokensIn: 1000, tokensOut: 200, costUsd: 1.5, outcome: "ok", confirmed: true });
    const b = await reserveSpend(db, request(userId, runId, 3));
    expect(b.id).not.toBeNull();
    await releaseSpend(db, b.id ?? "", "cancelled before sending");
    expect(await runSpent(db, runId)).toBeCloseTo(1.5, 6);
    const run = await runs.load(db, runId);
    expect(run).toMatchObject({ tokens_in: 1000, tokens_out: 200 });
    expect(Number(run?.cost_usd)).toBeCloseTo(1.5, 6);
    const rows = await db
      .selectFrom("model_requests")
      .selectAll()
      .where("run_id", "=", runId)
      .orderBy("created_at")
      .execute();
    expect(rows.map((r) => [r.state, Number(r.cost_usd), Number(r.reserved_usd)])).toEqual([
      ["settled", 1.5, 4],
      ["released", 0, 3],
    ]);
  });

  it("never records more than a reservation held, nor a cost that is not a number, whatever the caller passes", async () => {
    const userId = await insertUser(db);
    await setSpendingCaps(db, userId, { runUsd: 5, monthlyUsd: null });
    const runId = await newRun(userId, 1);
    const over = await reserveSpend(db, request(userId, runId, 2));
    const nan = await reserveSpend(db, request(userId, runId, 1));
    const huge = { tokensIn: 5e12, tokensOut: Number.NaN, outcome: "ok", confirmed: true };
    await settleSpend(db, over.id ?? "", { ...huge, costUsd: 9e9 });
    await settleSpend(db, nan.id ?? "", { ...huge, costUsd: Number.NaN });
    const rows = await db
      .selectFrom("model_requests")
      .selectAll()
      .where("run_id", "=", runId)
      .orderBy("reserved_usd", "desc")
      .execute();
    expect(rows.map((r) => [r.state, Number(r.cost_usd), r.tokens_in, r.tokens_out])).toEqual([
      ["unconfirmed", 2, 2 ** 31 - 1, 0],
      ["unconfirmed", 1, 2 ** 31 - 1, 0],
    ]);
    // The cap still has the room its reservations left: 5 − 3; the run's token total stays in range.
    expect(await runs.load(db, runId)).toMatchObject({ tokens_in: 2 ** 31 - 1, tokens_out: 0 });
    expect(Number((await runs.load(db, runId))?.cost_usd)).toBe(3);
    expect((await reserveSpend(db, request(userId, runId, 2))).id).not.toBeNull();
    expect((await reserveSpend(db, request(userId, runId, 0.5))).id).toBeNull();
  });

  it("keeps the run's cost equal to its ledger when its requests settle at the same moment (candidates)", async () => {
    const userId = await insertUser(db);
    const runId = await newRun(userId, 1);
    const held = await Promise.all(Array.from({ length: 12 }, () => reserveSpend(db, request(userId, runId, 1))));
    await Promise.all(
      held.map((h, i) =>
        settleSpend(db, h.id ?? "", { tokensIn: 10, tokensOut: i, costUsd: 0.5, outcome: "ok", confirmed: true }),
      ),
    );
    const run = await runs.load(db, runId);
    expect(Number(run?.cost_usd)).toBeCloseTo(6, 6);
    expect(run).toMatchObject({ tokens_in: 120, tokens_out: 66 });
  });

  it("records a reservation a crash left behind at its worst case, unconfirmed, and lets a late answer correct it", async () => {
    const userId = await insertUser(db);
    const runId = await newRun(userId, 1);
    const left = await reserveSpend(db, request(userId, runId, 2.5));
    expect(await recoverReservations(db, { runId })).toBe(1);
    const row = await db
      .selectFrom("model_requests")
      .selectAll()
      .where("id", "=", left.id ?? "")
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: "unconfirmed", outcome: expect.stringContaining("interrupted") });
    expect(Number(row.cost_usd)).toBe(2.5);
    expect(Number((await runs.load(db, runId))?.cost_usd)).toBe(2.5);
    expect(await recoverReservations(db, { runId })).toBe(0);

    await settleSpend(db, left.id ?? "", { tokensIn: 10, tokensOut: 5, costUsd: 0.25, outcome: "ok", confirmed: true });
    expect(Number((await runs.load(db, runId))?.cost_usd)).toBeCloseTo(0.25, 6);
  });

  it("sweeps reservations of runs that ended, and leaves those of active runs to their own recovery", async () => {
    const userId = await insertUser(db);
    const ended = await newRun(userId, 1);
    const active = await newRun(userId, 2);
    await reserveSpend(db, request(userId, ended, 1));
    await reserveSpend(db, request(userId, active, 1));
    await runs.end(db, { id: ended, issue_id: "", kind: "refine" }, "failed", { code: "x", message: "x" });
    expect(await recoverReservations(db, {})).toBeGreaterThanOrEqual(1);
    const states = await db
      .selectFrom("model_requests")
      .select(["run_id", "state"])
      .where("user_id", "=", userId)
      .execute();
    expect(states.find((s) => s.run_id === ended)?.state).toBe("unconfirmed");
    expect(states.find((s) => s.run_id === active)?.state).toBe("reserved");
  });
});
