import { sql, type Kysely, type Transaction } from "kysely";
import { ACTIVE_RUN_STATUSES, type StepId } from "@fixloop/contract";
import type { Database, ModelRequestState } from "../schema";
import type { CapDefaults } from "./costs.repository";
import { holdClaim, type RunClaim } from "./runs.claims";

type Conn = Kysely<Database> | Transaction<Database>;

/** A model request about to be sent, at its worst case. */
export interface SpendReservation {
  runId: string;
  userId: string;
  step: StepId;
  purpose: string;
  modelId: string;
  /** Which HTTP attempt of its model call this is. */
  attempt: number;
  worstUsd: number;
  /** Start of the user's usage period: the monthly cap counts from here. */
  periodStart: Date;
  defaults: CapDefaults;
  /** The worker's claim on the run: a worker that lost the run reserves nothing (ClaimLost), so sends nothing. */
  claim?: RunClaim;
}

/** What the caps and the ledger said when the reservation was decided. */
export interface ReserveOutcome {
  /** The ledger row holding the reservation; null when it did not fit a cap (nothing was written). */
  id: string | null;
  runCapUsd: number | null;
  monthlyCapUsd: number | null;
  runSpentUsd: number;
  monthSpentUsd: number;
}

const num = (v: string | number | null | undefined): number | null =>
  v === null || v === undefined ? null : Number(v);
/** Worst cases are rounded up to the column's precision, so a rounded reservation never holds less than the request may cost. */
const ceil6 = (usd: number): number => Math.ceil(Math.max(0, usd) * 1e6 - 1e-6) / 1e6;

/**
 * Reserves a request's worst case against the run cap and the monthly cap. The user's spending is
 * serialised by a transaction-scoped advisory lock; the check and the insert are then one
 * statement (`INSERT … SELECT … WHERE spent + worst <= cap`), which runs on a snapshot taken after
 * the lock was granted, so every reservation committed before it is counted and two concurrent
 * requests cannot both take the last room under a cap. Caps are read from the user's row inside
 * the lock (a cap lowered a moment ago applies).
 */
export async function reserveSpend(db: Kysely<Database>, r: SpendReservation): Promise<ReserveOutcome> {
  const worst = ceil6(r.worstUsd);
  return db.transaction().execute(async (trx) => {
    if (r.claim) await holdClaim(trx, r.claim);
    await sql`select pg_advisory_xact_lock(hashtextextended(${`fixloop.spend:${r.userId}`}, 0))`.execute(trx);
    const row = await sql<{
      id: string | null;
      run_cap: string | null;
      month_cap: string | null;
      run_spent: string;
      month_spent: string;
    }>`
      with s as (
        select
          coalesce(u.run_cost_cap_usd, ${r.defaults.runUsd ?? null}::numeric) as run_cap,
          coalesce(u.monthly_cost_cap_usd, ${r.defaults.monthlyUsd ?? null}::numeric) as month_cap,
          (select coalesce(sum(cost_usd), 0) from model_requests where run_id = ${r.runId}) as run_spent,
          (select coalesce(sum(cost_usd), 0) from model_requests
            where user_id = ${r.userId} and created_at >= ${r.periodStart}) as month_spent
        from users u where u.id = ${r.userId}
      ), ins as (
        insert into model_requests
          (run_id, user_id, step, purpose, model_id, tokens_in, tokens_out, cost_usd, reserved_usd, state, attempts, duration_ms)
        select ${r.runId}, ${r.userId}, ${r.step}, ${r.purpose}, ${r.modelId}, 0, 0, ${worst}, ${worst}, 'reserved', ${r.attempt}, 0
        from s
        where (s.run_cap is null or s.run_spent + ${worst} <= s.run_cap)
          and (s.month_cap is null or s.month_spent + ${worst} <= s.month_cap)
        returning id
      )
      select (select id from ins) as id, s.* from s`.execute(trx);
    const s = row.rows[0];
    if (!s) throw new Error(`user ${r.userId} does not exist`);
    return {
      id: s.id,
      runCapUsd: num(s.run_cap),
      monthlyCapUsd: num(s.month_cap),
      runSpentUsd: Number(s.run_spent),
      monthSpentUsd: Number(s.month_spent),
    };
  });
}

/** The real figures of a request that was sent; `confirmed: false` keeps the worst case (the provider told nothing). */
export interface SpendSettlement {
  tokensIn: number;
  tokensOut: number;
  costUsd: number;
  outcome: string;
  confirmed: boolean;
}

/** A token count as the integer column holds it: a finite count, rounded and kept in range, else 0. */
const tokens = (n: number): number => (Number.isFinite(n) ? Math.min(2 ** 31 - 1, Math.max(0, Math.round(n))) : 0);

/**
 * Settles a reservation to what the request cost (also one that recovery marked unconfirmed
 * meanwhile: the late answer is the better figure) and brings the run's totals in line with the
 * ledger. A request never records more than its reservation (its worst case), nor a cost that is
 * not a number: that much is recorded, unconfirmed, so a cap holds whatever a caller passes.
 */
export async function settleSpend(db: Kysely<Database>, id: string, s: SpendSettlement): Promise<void> {
  const confirmed = s.confirmed && Number.isFinite(s.costUsd);
  const cost = confirmed ? Math.max(0, s.costUsd) : 0;
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("model_requests")
      .set({
        state: confirmed
          ? sql<ModelRequestState>`case when ${cost} > reserved_usd then 'unconfirmed' else 'settled' end`
          : "unconfirmed",
        tokens_in: tokens(s.tokensIn),
        tokens_out: tokens(s.tokensOut),
        cost_usd: confirmed ? sql<string>`least(reserved_usd, ${cost})` : sql<string>`reserved_usd`,
        outcome: s.outcome.slice(0, 200),
        duration_ms: sql<number>`greatest(0, round(extract(epoch from now() - created_at) * 1000))::int`,
        settled_at: new Date(),
      })
      .where("id", "=", id)
      .where("state", "in", ["reserved", "unconfirmed"])
      .returning("run_id")
      .executeTakeFirst();
    if (row) await syncRunSpend(trx, row.run_id);
  });
}

/** A reservation whose request was never sent (cancelled first, or refused before it left): it costs nothing. */
export async function releaseSpend(db: Conn, id: string, outcome: string): Promise<void> {
  await db
    .updateTable("model_requests")
    .set({ state: "released", cost_usd: 0, outcome: outcome.slice(0, 200), settled_at: new Date() })
    .where("id", "=", id)
    .where("state", "=", "reserved")
    .execute();
}

/**
 * Reservations a crash left behind (their worker died between reserving and settling): recorded
 * at their worst case and marked unconfirmed. With `runId`, that run's (called when the run is
 * taken up again, before it reserves anything); without, those of runs no longer active.
 */
export async function recoverReservations(db: Kysely<Database>, scope: { runId?: string }): Promise<number> {
  return db.transaction().execute(async (trx) => {
    let q = trx
      .updateTable("model_requests")
      .set({ state: "unconfirmed", outcome: "interrupted: no answer was recorded", settled_at: new Date() })
      .where("state", "=", "reserved");
    q = scope.runId
      ? q.where("run_id", "=", scope.runId)
      : q.where("run_id", "in", (eb) =>
          eb.selectFrom("solve_runs").select("id").where("status", "not in", ACTIVE_RUN_STATUSES),
        );
    const rows = await q.returning("run_id").execute();
    // In one order, so two recoveries cannot wait on each other's runs.
    for (const runId of [...new Set(rows.map((r) => r.run_id))].sort()) await syncRunSpend(trx, runId);
    return rows.length;
  });
}

/**
 * The run's tokens and cost as the ledger has them: requests settled or recorded at their worst case.
 * Requests of one run settle at the same moment (its candidates): the run's row is locked first, so
 * each sum is read after the settlement before it committed, and none overwrites another's with less.
 * Token sums are held to the integer columns' range.
 */
export async function syncRunSpend(db: Transaction<Database>, runId: string): Promise<void> {
  await db.selectFrom("solve_runs").select("id").where("id", "=", runId).forUpdate().execute();
  const totals = db
    .selectFrom("model_requests")
    .where("run_id", "=", runId)
    .where("state", "in", ["settled", "unconfirmed"]);
  await db
    .updateTable("solve_runs")
    .set({
      tokens_in: totals.select(sql<number>`least(coalesce(sum(tokens_in), 0), 2147483647)::int`.as("t")),
      tokens_out: totals.select(sql<number>`least(coalesce(sum(tokens_out), 0), 2147483647)::int`.as("t")),
      cost_usd: totals.select(sql<string>`coalesce(sum(cost_usd), 0)`.as("t")),
    })
    .where("id", "=", runId)
    .execute();
}
